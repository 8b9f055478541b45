import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/lib/db";
import { currentUser } from "@/lib/auth/server/require-role";
import { findEnvironmentVersions, findVersionSources } from "@/lib/environments/server/get-environment-head";
import { VersionDiff } from "@/components/environments/version-diff";
import { Card } from "@/components/ui/states";
import { loadEnvironmentHead } from "../../load-environment";
import { intParam, type SearchValue } from "@/app/search-param";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Versions" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<{ a?: SearchValue; b?: SearchValue }> };

export default async function VersionsPage({ params, searchParams }: Props) {
  await currentUser();
  const env = await loadEnvironmentHead((await params).id);
  const versions = await findEnvironmentVersions(getDb(), env.id);
  const q = await searchParams;
  const head = env.currentVersion.version;
  const b = intParam(q.b) ?? head;
  const a = intParam(q.a) ?? versions.find((v) => v.version < b)?.version ?? b;
  const sources = await findVersionSources(getDb(), env.id, [a, b]);
  const source = (v: number) => sources.get(v) ?? "";
  return (
    <div className="space-y-4">
      <Link href={`/environments/${env.id}`} className="text-sm text-indigo-700 hover:underline">
        ← {env.name}
      </Link>
      <h1 className="text-2xl font-semibold tracking-tight">Versions</h1>
      <VersionDiff
        environmentId={env.id}
        versions={versions.map((v) => v.version)}
        a={a}
        b={b}
        original={source(a)}
        modified={source(b)}
      />
      <Card title={`History (${versions.length})`}>
        <ul className="divide-y divide-slate-100 text-sm" data-testid="version-list">
          {versions.map((v) => (
            <li key={v.id} className="flex flex-wrap items-baseline gap-3 py-2">
              <span className="font-medium">
                v{v.version}
                {v.version === head ? " (head)" : ""}
              </span>
              <span className="text-slate-600">{v.message || "—"}</span>
              <span className="text-xs text-slate-500">
                {v.author} · {new Date(v.createdAt).toLocaleString("en-GB")}
              </span>
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}
