import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { roleAtLeast } from "@/lib/auth/roles";
import { currentUser } from "@/lib/auth/server/require-role";
import { isAppError } from "@/lib/core/errors";
import { CLUSTER_PAGE_SIZE, type CorpusMapQuery, CorpusMapQuerySchema } from "@/lib/corpus/corpus.schema";
import { CODE_DUPLICATE, MIN_TOOLS_FOR_TOOL_MATCH, TOOL_DUPLICATE } from "@/lib/corpus/duplicates";
import { findScopeChoices } from "@/lib/corpus/server/find-scope-choices";
import { getCorpusMap } from "@/lib/corpus/server/get-corpus-map";
import { getDb } from "@/lib/db";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { CountBarChart } from "@/components/corpus/corpus-charts";
import { CoverageList } from "@/components/corpus/coverage-list";
import { DuplicateCluster } from "@/components/corpus/duplicate-cluster";
import { LeakList } from "@/components/corpus/leak-list";
import { Pager } from "@/components/corpus/pager";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/inputs";
import { Card, EmptyState } from "@/components/ui/states";
import { firstParam, type SearchValue } from "../search-param";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Corpus map" };

type Search = Record<"dataset" | "clusters" | "leaks", SearchValue>;

function parseQuery(search: Search): CorpusMapQuery {
  const parsed = CorpusMapQuerySchema.safeParse({
    dataset: firstParam(search.dataset),
    clusters: firstParam(search.clusters),
    leaks: firstParam(search.leaks),
  });
  // A crafted page number falls back to the first page rather than failing the whole map.
  return parsed.success ? parsed.data : { dataset: firstParam(search.dataset), clusters: 1, leaks: 1 };
}

async function load(query: CorpusMapQuery) {
  const db = getDb();
  const project = await getDefaultProject(db);
  try {
    const [map, choices] = await Promise.all([
      getCorpusMap(db, project.id, query),
      findScopeChoices(db, project.id),
    ]);
    return { map, choices };
  } catch (e) {
    if (isAppError(e) && e.code === "NOT_FOUND") notFound();
    throw e;
  }
}

export default async function CorpusPage({ searchParams }: { searchParams: Promise<Search> }) {
  const [search, user] = await Promise.all([searchParams, currentUser()]);
  const query = parseQuery(search);
  const { map, choices } = await load(query);
  const href = (next: Partial<CorpusMapQuery>) => {
    const q = { ...query, ...next };
    const params = new URLSearchParams();
    if (q.dataset) params.set("dataset", q.dataset);
    if (q.clusters > 1) params.set("clusters", String(q.clusters));
    if (q.leaks > 1) params.set("leaks", String(q.leaks));
    const text = params.toString();
    return `/corpus${text ? `?${text}` : ""}`;
  };
  // A dataset version is immutable: its duplicates are resolved in the corpus, then a new version is made.
  const canResolve = roleAtLeast(user.role, "REVIEWER") && map.scope.kind === "corpus";
  const { duplicates, coverage, leaks, splits } = map;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Corpus map</h1>
          <p className="text-sm text-slate-500">
            {map.scope.kind === "corpus"
              ? "The current version of every environment that is not rejected."
              : `The pinned versions of dataset ${map.scope.label}.`}
          </p>
        </div>
        <form action="/corpus" className="flex items-end gap-2 text-sm">
          <label className="flex flex-col gap-1">
            <span className="text-xs text-slate-500">Scope</span>
            <Select name="dataset" defaultValue={query.dataset ?? ""} aria-label="Scope">
              <option value="">Whole corpus</option>
              {choices.map((c) => (
                <option key={c.id} value={c.id}>
                  Dataset {c.label}
                </option>
              ))}
            </Select>
          </label>
          <Button type="submit" variant="secondary">
            Show
          </Button>
        </form>
      </div>
      {map.environments === 0 ? (
        <EmptyState
          title={map.scope.kind === "corpus" ? "No environments yet" : "This dataset version is empty"}
        >
          Import environments or run the pipeline; the map fills in as environments arrive.
        </EmptyState>
      ) : (
        <>
          <div className="grid gap-4 sm:grid-cols-5" data-testid="corpus-stats">
            <Stat label="Environments" value={map.environments} />
            <Stat label="Scenarios" value={splits.scenarios} />
            <Stat
              label="Duplicate clusters"
              value={duplicates.clusterCount}
              note={`${duplicates.redundant} redundant`}
            />
            <Stat
              label="Tools on a proven gold path"
              value={`${coverage.covered} / ${coverage.tools}`}
              note={`${coverage.tools - coverage.covered} untested`}
            />
            <Stat label="Tasks leaking an answer" value={leaks.total} note={`of ${leaks.scanned}`} />
          </div>
          <div className="grid gap-4 md:grid-cols-2">
            <Card title="Scenarios by domain">
              <CountBarChart rows={splits.byDomain} unit="scenarios" layout="rows" testId="chart-domain" />
            </Card>
            <Card title="Scenarios by tool count">
              <CountBarChart rows={splits.byToolCount} unit="scenarios" testId="chart-tool-count" />
            </Card>
            <Card title="Scenarios by difficulty">
              <CountBarChart rows={splits.byDifficulty} unit="scenarios" testId="chart-difficulty" />
              <p className="mt-2 text-sm text-slate-500">
                Success rate of the rollouts graded on each scenario&apos;s versions; &ldquo;never&rdquo; and
                &ldquo;always solved&rdquo; carry no training signal. Run rollouts from a dataset page or with{" "}
                <code>envstudio rollouts</code>.
              </p>
            </Card>
            <Card title="Environments by share of tools on a proven gold path">
              <CountBarChart rows={coverage.byShare} unit="environments" testId="chart-coverage" />
            </Card>
          </div>
          <Card title={`Near-duplicate environments (${duplicates.clusterCount} clusters)`}>
            {duplicates.clusters.length ? (
              <ol className="space-y-3">
                {duplicates.clusters.map((c, i) => (
                  <DuplicateCluster
                    key={c.members.map((m) => m.versionId).join(" ")}
                    cluster={c}
                    canEdit={canResolve}
                    index={(duplicates.page - 1) * CLUSTER_PAGE_SIZE + i + 1}
                  />
                ))}
              </ol>
            ) : (
              <p className="text-sm text-slate-500">
                No near-duplicates: no two environments share code or tool signatures closely.
              </p>
            )}
            <Pager
              page={duplicates.page}
              pageCount={duplicates.pageCount}
              href={(p) => href({ clusters: p })}
              label="Cluster pages"
            />
          </Card>
          <div className="grid gap-4 md:grid-cols-2">
            <Card title="Untested tools (no proven scenario calls them)">
              <CoverageList coverage={coverage} />
            </Card>
            <Card title={`Tasks that state a gold argument (${leaks.total})`}>
              <LeakList leaks={leaks} />
              <Pager
                page={leaks.page}
                pageCount={leaks.pageCount}
                href={(p) => href({ leaks: p })}
                label="Leak pages"
              />
            </Card>
          </div>
          <p className="text-xs text-slate-500">
            Near-duplicates: code similarity of at least {pct(CODE_DUPLICATE)} (comments, docstrings and
            literal values ignored), or tool signatures (names and parameters) of at least{" "}
            {pct(TOOL_DUPLICATE)} alike with {MIN_TOOLS_FOR_TOOL_MATCH} or more tools each. A leak is a gold
            argument the task states verbatim, except booleans, numbers under 4 characters, strings under 4
            characters and ids.
          </p>
        </>
      )}
    </div>
  );
}

const pct = (v: number) => `${Math.round(v * 100)} %`;

function Stat({ label, value, note }: { label: string; value: number | string; note?: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <p className="text-xs text-slate-500">{label}</p>
      <p className="text-2xl font-semibold">{value}</p>
      {note ? <p className="text-xs text-slate-500">{note}</p> : null}
    </div>
  );
}
