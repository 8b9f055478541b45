import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/lib/db";
import { roleAtLeast } from "@/lib/auth/roles";
import { currentUser } from "@/lib/auth/server/require-role";
import { parseTools } from "@/lib/environments/environment.schema";
import { findPlaygroundScenarios } from "@/lib/playground/server/find-playground-scenarios";
import { Playground } from "@/components/playground/playground";
import { EmptyState } from "@/components/ui/states";
import { loadEnvironmentHead } from "../../load-environment";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Tool playground" };

export default async function PlaygroundPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await currentUser();
  const env = await loadEnvironmentHead((await params).id);
  const head = env.currentVersion;
  const scenarios = await findPlaygroundScenarios(getDb(), env.id);
  const tools = parseTools(head.tools);
  return (
    <div className="space-y-4">
      <div>
        <Link href={`/environments/${env.id}`} className="text-sm text-indigo-700 hover:underline">
          ← {env.name}
        </Link>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight">Tool playground</h1>
      </div>
      {tools.length === 0 ? (
        <EmptyState title="This version exposes no tools" />
      ) : (
        <Playground
          environmentId={env.id}
          versionId={head.id}
          version={head.version}
          tools={tools}
          canRun={roleAtLeast(user.role, "REVIEWER")}
          scenarios={scenarios}
        />
      )}
    </div>
  );
}
