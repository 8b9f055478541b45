import type { Metadata } from "next";
import Link from "next/link";
import { roleAtLeast } from "@/lib/auth/roles";
import { currentUser } from "@/lib/auth/server/require-role";
import { parseTools } from "@/lib/environments/environment.schema";
import { EnvironmentEditor } from "@/components/environments/environment-editor";
import { loadEnvironmentHead } from "../../load-environment";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Edit code" };

export default async function EditEnvironmentPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await currentUser();
  const env = await loadEnvironmentHead((await params).id);
  const head = env.currentVersion;
  return (
    <div className="space-y-4">
      <div>
        <Link href={`/environments/${env.id}`} className="text-sm text-indigo-700 hover:underline">
          ← {env.name}
        </Link>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight">
          Edit <code>{head.className}</code>
        </h1>
        <p className="text-sm text-slate-500">
          Saving creates version {head.version + 1}; earlier versions never change.
        </p>
      </div>
      <EnvironmentEditor
        environmentId={env.id}
        baseVersionId={head.id}
        baseVersion={head.version}
        source={head.source}
        tools={parseTools(head.tools)}
        canEdit={roleAtLeast(user.role, "REVIEWER")}
        isAccepted={env.status === "ACCEPTED"}
      />
    </div>
  );
}
