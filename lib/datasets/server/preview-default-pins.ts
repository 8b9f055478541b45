import "server-only";
/**
 * The preview's reads when every scenario sits on its default pins (no chosen pin, no override):
 * the kept facts then answer everything, and no read sorts or groups the corpus twice. Scenarios
 * left out by hand are classed "out" in the one pass and kept out of every other read.
 *   0. the (n, successes) pairs the included facts have, by a skip scan of the bucket index, so
 *      the difficulty lookup is known before the corpus is read;
 *   1. one pass over the facts: verdict groups per environment with what each would keep on
 *      either side, and the included items by (n, successes, weak);
 *   2. with the split: the test side's included items (an index read of its environments; the
 *      train side is the rest), and the two pages as key-ordered index ranges (../preview-levels.ts).
 * The reads are separate snapshots, as the scanning path's rounds are: a write between them can
 * shift a page by the rows it moved until the next preview (creating a version reads one plan).
 * preview-dataset-page.db.test.ts holds the result equal to the pure plan's page.
 */
import { type Db, Prisma } from "@/lib/db";
import {
  type ClassGroup,
  type DifficultyLookup,
  type FactClass,
  classGroupOf,
  type SideGroup,
} from "../preview-from-groups";
import { type BucketRun, type Level, droppedLevel, includedLevels, pageSegments } from "../preview-levels";
import type { PreviewPage } from "../preview-page";
import type { PlanInput } from "./load-dataset-plan";
import { type PageRow, consideredFacts, scan } from "./preview-scan";

/** The facts a curator left out by hand are left out of every read but the left-out page's own. */
const notLeftOut = (input: PlanInput) =>
  input.excludeScenarioIds.length
    ? Prisma.sql`AND NOT (f."scenarioId" = ANY(${input.excludeScenarioIds}::text[]))`
    : Prisma.empty;

/** The verdict class as the plan sees it: a scenario left out by hand is "out", whatever its facts say. */
const classOf = (input: PlanInput) =>
  input.excludeScenarioIds.length
    ? Prisma.sql`CASE WHEN f."scenarioId" = ANY(${input.excludeScenarioIds}::text[]) THEN 'out' ELSE f."planClass" END`
    : Prisma.sql`f."planClass"`;

/** Every (n, successes) of the project's included facts, one index probe each. */
export async function loadPairs(db: Db, projectId: string) {
  return scan<{ n: number; successes: number }[]>(
    db,
    Prisma.sql`
    WITH RECURSIVE p AS (
      (SELECT f.n, f.successes FROM "ScenarioPlanFact" f WHERE f."projectId" = ${projectId} AND f."planClass" = 'ok'
       ORDER BY f.n, f.successes LIMIT 1)
      UNION ALL
      SELECT x.n, x.successes FROM p, LATERAL (
        SELECT f.n, f.successes FROM "ScenarioPlanFact" f
        WHERE f."projectId" = ${projectId} AND f."planClass" = 'ok' AND (f.n, f.successes) > (p.n, p.successes)
        ORDER BY f.n, f.successes LIMIT 1) x)
    SELECT n, successes FROM p`,
  );
}

type Tally = { n: number; successes: number; weak: boolean; count: number };

type OtherGroupRow = [string, string, boolean | null, string | null, number, string | null];

/** A pair as one int8, so "is this item's pair dropped" is one hashed `= ANY` per row. */
const pairCode = (n: number, successes: number) => ((BigInt(n) << 32n) | BigInt(successes)).toString();
const codedPair = Prisma.sql`((q.n::int8 << 32) | q.successes)`;

/**
 * Pass 1. Per environment and verdict: the count, the first left-out external id, and how many
 * included items it keeps on the train side and on the test side (the split comes later). And the
 * included items by (n, successes, weak), over both sides. Most environments have one group, all
 * included: those travel as plain "id count keptTrain keptTest" text, the rest as JSON (decoding
 * ten thousand JSON rows costs more than the scan).
 */
export async function loadDefaultGroups(db: Db, input: PlanInput, lookup: readonly DifficultyLookup[]) {
  const dropped = (test: boolean) =>
    lookup.filter((l) => l.test === test && l.dropped).map((l) => pairCode(l.n, l.successes));
  const [row] = await scan<{ ok: string | null; other: string | null; totals: string | null }[]>(
    db,
    Prisma.sql`
    SELECT string_agg(concat(g."environmentId", ' ', g.count, ' ', g."keptTrain", ' ', g."keptTest"), ',')
             FILTER (WHERE g."byEnvironment" AND g.cls = 'ok') AS ok,
           (json_agg(json_build_array(g."environmentId", g.cls, g.accepted, g.proof, g.count, g.first))
             FILTER (WHERE g."byEnvironment" AND g.cls <> 'ok'))::text AS other,
           (json_agg(json_build_array(g.n, g.successes, g.weak, g.count))
             FILTER (WHERE NOT g."byEnvironment" AND g.cls = 'ok'))::text AS totals
    FROM (
      SELECT (GROUPING(q."environmentId") = 0) AS "byEnvironment", q."environmentId", q.cls, q.accepted, q.proof,
             q.n, q.successes, q.weak, count(*)::int AS count, min(q."externalId") FILTER (WHERE q.cls <> 'ok') AS first,
             (count(*) FILTER (WHERE q.cls = 'ok' AND NOT ${codedPair} = ANY(${dropped(false)}::int8[])))::int AS "keptTrain",
             (count(*) FILTER (WHERE q.cls = 'ok' AND NOT ${codedPair} = ANY(${dropped(true)}::int8[])))::int AS "keptTest"
      FROM (
        SELECT f."environmentId", ${classOf(input)} AS cls, f."externalId" COLLATE "C" AS "externalId", f.n, f.successes, f.weak,
               CASE WHEN ${classOf(input)} = 'problem' THEN f.status = 'ACCEPTED' ELSE true END AS accepted,
               CASE WHEN ${classOf(input)} = 'problem' THEN f."proofStatus" END AS proof
        FROM "ScenarioPlanFact" f WHERE f."projectId" = ${input.projectId} AND ${consideredFacts(input)}) q
      GROUP BY GROUPING SETS ((q."environmentId", q.cls, q.accepted, q.proof), (q.cls, q.n, q.successes, q.weak))) g`,
  );
  const groups: ClassGroup[] = [];
  const kept = new Map<ClassGroup, { train: number; test: number }>();
  for (const entry of row?.ok ? row.ok.split(",") : []) {
    const [environmentId = "", count, train, test] = entry.split(" ");
    const group: ClassGroup = {
      environmentId,
      cls: "ok",
      accepted: true,
      proof: null,
      count: Number(count),
      first: null,
    };
    groups.push(group);
    kept.set(group, { train: Number(train), test: Number(test) });
  }
  for (const [environmentId, cls, accepted, proof, count, first] of JSON.parse(
    row?.other ?? "[]",
  ) as OtherGroupRow[])
    groups.push(classGroupOf(environmentId, cls, accepted, proof, count, first));
  const totals = (JSON.parse(row?.totals ?? "[]") as [number, number, boolean, number][]).map(
    ([n, successes, weak, count]) => ({ n, successes, weak, count }),
  );
  return { groups, kept, totals };
}

/** Pass 2: the test side's included items by (n, successes, weak), read through its environments. */
export async function loadTestSide(db: Db, input: PlanInput, testEnvironmentIds: string[]): Promise<Tally[]> {
  if (testEnvironmentIds.length === 0) return [];
  return scan<Tally[]>(
    db,
    Prisma.sql`
    SELECT f.n, f.successes, f.weak, count(*)::int AS count FROM "ScenarioPlanFact" f
    WHERE f."environmentId" = ANY(${testEnvironmentIds}::text[]) AND f."projectId" = ${input.projectId}
      AND ${consideredFacts(input)} AND f."planClass" = 'ok' ${notLeftOut(input)}
    GROUP BY f.n, f.successes, f.weak`,
  );
}

/** The included items by side: the test side as read, the train side what the totals leave. */
export function sideGroups(totals: readonly Tally[], testSide: readonly Tally[]): SideGroup[] {
  const key = (t: Omit<Tally, "count">) => `${t.n} ${t.successes} ${t.weak}`;
  const test = new Map(testSide.map((t) => [key(t), t.count]));
  return totals.flatMap((t) => {
    const onTest = test.get(key(t)) ?? 0;
    const base = { n: t.n, successes: t.successes, weak: t.weak, problem: false };
    return [
      ...(t.count - onTest > 0 ? [{ ...base, test: false, count: t.count - onTest }] : []),
      ...(onTest > 0 ? [{ ...base, test: true, count: onTest }] : []),
    ];
  });
}

const rowColumns = (
  cls: Prisma.Sql = Prisma.sql`f."planClass"`,
) => Prisma.sql`f."scenarioId" AS id, f."environmentId",
  f."externalId", f.status, f."validatorVersionIds" AS vals, f."environmentVersionId" AS pin, ${cls} AS cls,
  f."proofStatus" AS proof, f.n, f.successes, f."key"`;

/** Rows `offset..offset+limit` of key-ordered index ranges merged by key (a merge append, no sort). */
async function mergedRuns(db: Db, ranges: Prisma.Sql[], offset: number, limit: number): Promise<PageRow[]> {
  if (ranges.length === 0 || limit <= 0) return [];
  const rows = await scan<(PageRow & { key: string })[]>(
    db,
    Prisma.sql`SELECT * FROM (${Prisma.join(
      ranges.map((r) => Prisma.sql`(${r} ORDER BY f."key")`),
      " UNION ALL ",
    )}) u ORDER BY u."key" OFFSET ${offset} LIMIT ${limit}`,
  );
  return rows.map(({ key: _key, ...row }) => row);
}

function bucketRange(input: PlanInput, run: BucketRun, testIds: string[], weakOnly: boolean) {
  const side =
    run.sides === "both"
      ? Prisma.empty
      : run.sides === "test"
        ? Prisma.sql`AND f."environmentId" = ANY(${testIds}::text[])`
        : Prisma.sql`AND NOT (f."environmentId" = ANY(${testIds}::text[]))`;
  return Prisma.sql`SELECT ${rowColumns()} FROM "ScenarioPlanFact" f
    WHERE f."projectId" = ${input.projectId} AND f."planClass" = 'ok' AND f.n = ${run.n} AND f.successes = ${run.successes}
      AND ${consideredFacts(input)} ${notLeftOut(input)} ${side} ${weakOnly ? Prisma.sql`AND f.weak` : Prisma.empty}`;
}

async function levelRows(
  db: Db,
  input: PlanInput,
  levels: readonly Level[],
  testIds: string[],
  weakOnly: boolean,
  offset: number,
  limit: number,
): Promise<PageRow[]> {
  const segments = pageSegments(levels, offset, limit);
  const pages = await Promise.all(
    segments.map((s) =>
      mergedRuns(
        db,
        s.part.runs.map((run) => bucketRange(input, run, testIds, weakOnly)),
        s.offset,
        s.limit,
      ),
    ),
  );
  return pages.flat();
}

/** The included page: kept items by sort value, then key. */
export function loadIncludedRuns(
  db: Db,
  input: PlanInput,
  lookup: readonly DifficultyLookup[],
  sides: readonly SideGroup[],
  testIds: string[],
  page: PreviewPage,
) {
  const weakOnly = page.show === "weak";
  const levels = includedLevels(lookup, sides, {
    descending: input.difficulty.sort === "p_signal",
    weakOnly,
  });
  return levelRows(db, input, levels, testIds, weakOnly, page.offset, page.limit);
}

/** The left-out page: left out by verdict (key order), then by difficulty (key order). */
export function loadExcludedRuns(
  db: Db,
  input: PlanInput,
  groups: readonly ClassGroup[],
  lookup: readonly DifficultyLookup[],
  sides: readonly SideGroup[],
  testIds: string[],
  page: PreviewPage,
) {
  const byClass = new Map<FactClass, number>();
  for (const g of groups) if (g.cls !== "ok") byClass.set(g.cls, (byClass.get(g.cls) ?? 0) + g.count);
  const verdicts = {
    count: [...byClass.values()].reduce((a, b) => a + b, 0),
    ranges: [...byClass.keys()].map((cls) =>
      cls === "out"
        ? Prisma.sql`SELECT ${rowColumns(Prisma.sql`'out'`)} FROM "ScenarioPlanFact" f
            WHERE f."scenarioId" = ANY(${input.excludeScenarioIds}::text[]) AND f."projectId" = ${input.projectId}
              AND ${consideredFacts(input)}`
        : Prisma.sql`SELECT ${rowColumns()} FROM "ScenarioPlanFact" f
            WHERE f."projectId" = ${input.projectId} AND f."planClass" = ${cls} AND ${consideredFacts(input)} ${notLeftOut(input)}`,
    ),
  };
  const dropped = droppedLevel(lookup, sides);
  const difficulty = {
    count: dropped.count,
    ranges: dropped.runs.map((run) => bucketRange(input, run, testIds, false)),
  };
  return Promise.all(
    pageSegments([verdicts, difficulty], page.excludedOffset, page.limit).map((s) =>
      mergedRuns(db, s.part.ranges, s.offset, s.limit),
    ),
  ).then((pages) => pages.flat());
}
