import type { Metadata } from "next";
import { getDb } from "@/lib/db";
import { currentUser } from "@/lib/auth/server/require-role";
import { parseListQuery } from "@/lib/environments/environment.schema";
import { findDomains, findEnvironments } from "@/lib/environments/server/find-environments";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { EnvironmentsBrowser } from "@/components/environments/environments-browser";
import { ErrorState } from "@/components/ui/states";
import { formatZodIssues } from "@/lib/core/zod-issues";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Environments" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function EnvironmentsPage({ searchParams }: Props) {
  await currentUser();
  const query = parseListQuery(await searchParams);
  if (!query.success) {
    return (
      <ErrorState
        title="Invalid filter"
        message={formatZodIssues(query.error, { root: "filter", separator: "\n" })}
      />
    );
  }
  const db = getDb();
  const project = await getDefaultProject(db);
  const [initial, domains] = await Promise.all([
    findEnvironments(db, project.id, query.data),
    findDomains(db, project.id),
  ]);
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">Environments</h1>
      <EnvironmentsBrowser initialQuery={query.data} initialData={initial} domains={domains} />
    </div>
  );
}
