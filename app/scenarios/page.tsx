import type { Metadata } from "next";
import Link from "next/link";
import { z } from "zod";
import { getDb } from "@/lib/db";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { findScenarios } from "@/lib/scenarios/server/get-scenario";
import { StatusBadge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/states";
import { Button } from "@/components/ui/button";
import { Checkbox, Input, SearchInput } from "@/components/ui/inputs";
import { SCENARIO_BULK_FORM, ScenarioBulkBar } from "@/components/scenarios/scenario-bulk-bar";
import { addScenariosToDatasetAction } from "./actions";
import { collidingNames, distinctName } from "@/lib/environments/name-collisions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Scenarios" };

const FILTERS = ["PENDING", "VERIFIED", "FAILED", "STALE"] as const;
const Query = z.object({
  proof: z.enum(FILTERS).optional().catch(undefined),
  q: z.string().trim().max(200).optional().catch(undefined),
});
/** Header and body cells share their padding, so each column name sits over its column. */
const HEAD = "border-b border-slate-200 px-3 py-2 font-medium whitespace-nowrap";
const CELL = "border-b border-slate-100 px-3 py-2";
const Reasons = z.array(z.object({ code: z.string() })).catch([]);

export default async function ScenariosPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const query = Query.parse(await searchParams);
  const db = getDb();
  const project = await getDefaultProject(db);
  const scenarios = await findScenarios(db, project.id, {
    proofStatus: query.proof,
    q: query.q || undefined,
  });
  const clash = collidingNames(scenarios.map((s) => s.environment));
  const datasets = await db.dataset.findMany({
    where: { projectId: project.id },
    orderBy: { name: "asc" },
    select: { id: true, name: true },
  });
  const withQuery = (proof?: string) => {
    const p = new URLSearchParams();
    if (proof) p.set("proof", proof);
    if (query.q) p.set("q", query.q);
    return p.size ? `/scenarios?${p.toString()}` : "/scenarios";
  };
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">Scenarios</h1>
      <form method="get" action="/scenarios" role="search" className="flex items-center gap-2 text-sm">
        <SearchInput
          label="Search scenarios"
          defaultValue={query.q ?? ""}
          placeholder="Task, scenario id, environment name or env_id"
          className="w-96"
        />
        {query.proof ? <Input type="hidden" name="proof" value={query.proof} /> : null}
        <Button type="submit" variant="secondary" size="sm">
          Search
        </Button>
      </form>
      <nav className="flex gap-3 text-sm" aria-label="Proof status">
        <Link href={withQuery()} className={!query.proof ? "font-semibold" : "text-indigo-700"}>
          All
        </Link>
        {FILTERS.map((f) => (
          <Link
            key={f}
            href={withQuery(f)}
            className={query.proof === f ? "font-semibold" : "text-indigo-700"}
          >
            {f.toLowerCase()}
          </Link>
        ))}
      </nav>
      {scenarios.length === 0 ? (
        <EmptyState title={query.q ? "No scenarios match" : "No scenarios"}>
          {query.q
            ? "Clear the search to see every scenario."
            : "Generate scenarios from an environment page."}
        </EmptyState>
      ) : (
        <>
          <ScenarioBulkBar datasets={datasets} action={addScenariosToDatasetAction} />
          {/* The table scrolls in its own box (sideways on a phone), so its header can stick to the
            box's top while the rows scroll under it; the header's colours are theme variables. */}
          <div className="max-h-[75vh] overflow-auto rounded-lg border border-slate-200 bg-white">
            <table
              className="w-full border-separate border-spacing-0 text-left text-sm"
              data-testid="scenario-table"
            >
              <thead className="sticky top-0 z-10 bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className={`${HEAD} w-8`}>
                    <span className="sr-only">Select</span>
                  </th>
                  <th scope="col" className={`${HEAD} min-w-64`}>
                    Scenario
                  </th>
                  <th scope="col" className={HEAD}>
                    Environment
                  </th>
                  <th scope="col" className={HEAD}>
                    Status
                  </th>
                  <th scope="col" className={HEAD}>
                    Proof
                  </th>
                  <th scope="col" className={`${HEAD} text-right`}>
                    Checks
                  </th>
                  <th scope="col" className={`${HEAD} text-right`}>
                    Rollouts
                  </th>
                </tr>
              </thead>
              <tbody className="[&>tr:last-child>td]:border-b-0">
                {scenarios.map((s) => (
                  <tr key={s.id} className="align-top">
                    <td className={CELL}>
                      <Checkbox
                        form={SCENARIO_BULK_FORM}
                        name="scenarioId"
                        value={s.id}
                        label={<span className="sr-only">Select {s.externalId}</span>}
                      />
                    </td>
                    <td className={CELL}>
                      <Link href={`/scenarios/${s.id}`} className="text-indigo-700 hover:underline">
                        <code>{s.externalId}</code>
                      </Link>
                      <p className="line-clamp-2 text-slate-600">{s.task}</p>
                    </td>
                    <td className={CELL}>{distinctName(s.environment, clash)}</td>
                    <td className={CELL}>
                      <StatusBadge status={s.status} />
                    </td>
                    <td className={CELL}>
                      <StatusBadge status={s.proofStatus} />
                      <div className="text-xs text-rose-700">
                        {Reasons.parse(s.proofReasons)
                          .map((r) => r.code)
                          .join(", ")}
                      </div>
                    </td>
                    <td className={`${CELL} text-right tabular-nums`}>{s._count.validators}</td>
                    <td className={`${CELL} text-right tabular-nums`}>{s._count.trajectories}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </div>
  );
}
