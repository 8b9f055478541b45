import "server-only";
/**
 * The dataset preview at corpus scale. The pure plan (../plan.ts) needs every scenario with its
 * proofs and rollout sums in one process: seconds at 100,000 scenarios. Here Postgres reads the
 * kept per-scenario facts ("ScenarioPlanFact": one narrow row per scenario on its default pins,
 * with its verdict class). On the default pins, ./preview-default-pins.ts reads them once and
 * pages through indexes. Any other choice (a chosen pin, the override) is answered here in two
 * rounds:
 *   1. the scenarios grouped by environment and verdict, and the (n, successes) pairs the
 *      included ones have (beside the environments themselves);
 *   2. with the split and the difficulty lookup worked out from those (../preview-from-groups.ts),
 *      side by side: the included items by side and counts with each environment's kept count,
 *      one page of included items in the chosen order, one page of left-out items.
 * Either way only the pages' items are then read in full (per-model difficulty, strength, version
 * numbers).
 * A scenario pinned to another environment version than its accepted one (a chosen pin, or the
 * override's current version) has its proof and sums looked up on that pin instead.
 * preview-dataset-page.db.test.ts holds this equal to previewPage(planDatasetVersion(...)).
 */
import { type Db, Prisma } from "@/lib/db";
import { difficultyOf, loadRolloutCounts } from "@/lib/difficulty/server/scenario-difficulty";
import { idList } from "@/lib/review/acceptance";
import { findPinnedStrengths } from "@/lib/scenarios/server/find-weak-validators";
import { type CreateDatasetVersionInput, CreateDatasetVersionInputSchema } from "../dataset.schema";
import { planKey } from "../key-order";
import { type PlanEnvironment, type PlanItem, choiceOf, envPinOf, versionLookup } from "../plan";
import {
  type ClassGroup,
  classGroupOf,
  type FactClass,
  type PreviewOptions,
  type SideGroup,
  type StageOne,
  excludedItem,
  difficultyLookup,
  stageOne,
  stageTwo,
  verdictOf,
} from "../preview-from-groups";
import {
  type DatasetPreviewPage,
  type PreviewPage,
  capWarnings,
  needsChoice,
  orderReasons,
} from "../preview-page";
import type { SplitName } from "../split";
import { type PlanInput, loadEnvironments, overrideReasonOf } from "./load-dataset-plan";
import {
  loadDefaultGroups,
  loadExcludedRuns,
  loadIncludedRuns,
  loadPairs,
  loadTestSide,
  sideGroups,
} from "./preview-default-pins";
import { type PageRow, consideredFacts, scan } from "./preview-scan";

/**
 * Every scenario of the considered environments (as loadEnvironments picks them), classed as
 * judgeScenario would class it, as the relation `i`. The pin is envPinOf in SQL: the chosen
 * version, else the accepted one (the facts' own), else by override the current one. On the facts'
 * own pin the kept class, proof, weak flag and sums hold; on another pin the scenario is
 * "problem" (that version is not accepted) and proof and sums are looked up on that pin.
 */
export function classified(input: PlanInput, opts: PreviewOptions) {
  const considered = consideredFacts(input);
  const leftOut = input.excludeScenarioIds.length
    ? Prisma.sql`f."scenarioId" = ANY(${input.excludeScenarioIds}::text[])`
    : Prisma.sql`false`;
  const base = Prisma.sql`
    SELECT f."scenarioId" AS id, f."environmentId", f."externalId", f."key", f.status, f."validatorVersionIds" AS vals,
           f."environmentVersionId" AS accepted, f."planClass", f."proofStatus", f.weak AS "keptWeak", f.n AS "keptN",
           f.successes AS "keptSuccesses", ${leftOut} AS "leftOut"`;
  if (Object.keys(opts.pins).length === 0 && !opts.override)
    // Every pin is the accepted version: the kept facts answer everything.
    return Prisma.sql`
      i AS (
        SELECT b.*, b.cls = 'ok' AS included FROM (
          SELECT a.id, a."environmentId", a."externalId", a."key", a.status, a.vals, a.accepted AS pin,
                 a."proofStatus" AS proof, a."keptWeak" AS weak, a."keptN" AS n, a."keptSuccesses" AS successes,
                 CASE WHEN a."leftOut" THEN 'out' ELSE a."planClass" END AS cls
          FROM (${base} FROM "ScenarioPlanFact" f WHERE f."projectId" = ${input.projectId} AND ${considered}) a) b)`;
  const onPin = (fn: "plan_proof_on" | "plan_counts_on", column: string, kept: string, none: string) =>
    Prisma.raw(`CASE WHEN p.pin IS NOT DISTINCT FROM p.accepted THEN p."${kept}"
         WHEN p.pin IS NULL OR p.vals IS NULL THEN ${none}
         ELSE (SELECT x."${column}" FROM "${fn}"(p.id, p.pin, p.vals) x) END`);
  return Prisma.sql`
    i AS (
      SELECT b.*, b.cls = 'ok' OR (b.cls = 'problem' AND ${opts.override}) AS included FROM (
        SELECT p.id, p."environmentId", p."externalId", p."key", p.status, p.vals, p.pin,
               ${onPin("plan_proof_on", "status", "proofStatus", "NULL")} AS proof,
               COALESCE(${onPin("plan_proof_on", "weak", "keptWeak", "false")}, false) AS weak,
               ${onPin("plan_counts_on", "n", "keptN", "0")} AS n,
               ${onPin("plan_counts_on", "successes", "keptSuccesses", "0")} AS successes,
               CASE WHEN p."leftOut" THEN 'out' WHEN p.pin IS NOT DISTINCT FROM p.accepted THEN p."planClass"
                    WHEN p.status = 'REJECTED' THEN 'rejected' WHEN p.vals IS NULL THEN 'waiting' ELSE 'problem' END AS cls
        FROM (
          SELECT a.*, COALESCE(${JSON.stringify(opts.pins)}::jsonb ->> a."environmentId", a.accepted,
                               CASE WHEN ${opts.override} THEN a."currentEnvironmentVersionId" END) AS pin
          FROM (${base}, f."currentEnvironmentVersionId"
                FROM "ScenarioPlanFact" f WHERE f."projectId" = ${input.projectId} AND ${considered}) a
          OFFSET 0) p
        OFFSET 0) b)`;
}

type StageOneRow = [
  boolean,
  string | null,
  FactClass | null,
  boolean | null,
  string | null,
  number | null,
  number | null,
  number,
  string | null,
];

/**
 * Stage 1 in one pass: verdict groups per environment, and the (n, successes) the included have.
 * The groups travel as one JSON text: decoding ten thousand rows costs more than the scan.
 */
async function loadClassGroups(db: Db, facts: Prisma.Sql) {
  const [row] = await scan<{ groups: string | null }[]>(
    db,
    Prisma.sql`
    WITH ${facts}
    SELECT json_agg(json_build_array(g."byEnvironment", g."environmentId", g.cls, g.accepted, g.proof, g.n, g.successes, g.count, g.first))::text AS groups
    FROM (
      SELECT (GROUPING(q."environmentId") = 0) AS "byEnvironment", q."environmentId", q.cls, q.accepted, q.proof, q.n, q.successes,
             count(*)::int AS count, min(q.first COLLATE "C") AS first
      FROM (
        SELECT "environmentId", cls,
               CASE WHEN cls = 'problem' THEN status = 'ACCEPTED' ELSE true END AS accepted,
               CASE WHEN cls = 'problem' THEN proof END AS proof,
               CASE WHEN included THEN n END AS n, CASE WHEN included THEN successes END AS successes,
               CASE WHEN NOT included THEN "externalId" END AS first
        FROM i) q
      GROUP BY GROUPING SETS ((q."environmentId", q.cls, q.accepted, q.proof), (q.n, q.successes))) g`,
  );
  const groups: ClassGroup[] = [];
  const pairs: { n: number; successes: number }[] = [];
  for (const [byEnvironment, environmentId, cls, accepted, proof, n, successes, count, first] of JSON.parse(
    row?.groups ?? "[]",
  ) as StageOneRow[]) {
    if (byEnvironment && environmentId && cls)
      groups.push(classGroupOf(environmentId, cls, accepted, proof, count, first));
    else if (!byEnvironment && n !== null && successes !== null) pairs.push({ n, successes });
  }
  return { groups, pairs };
}

type SideRow = [
  boolean,
  string | null,
  boolean | null,
  number | null,
  number | null,
  boolean | null,
  boolean | null,
  number,
  number,
];

const byKey = Prisma.sql`s."key"`;

/** The difficulty lookup, the test side, and the classified scenarios joined to them. */
function lookupRelation(one: StageOne) {
  return Prisma.sql`
    lk AS (SELECT * FROM jsonb_to_recordset(${JSON.stringify(one.lookup)}::jsonb)
           AS l(test boolean, n int, successes int, dropped boolean, metric float8)),
    t AS (SELECT unnest(${one.testEnvironmentIds}::text[]) AS id),
    s AS (SELECT i.*, COALESCE(lk.dropped, false) AS dropped, lk.metric, lk.test FROM i
          LEFT JOIN lk ON i.included AND lk.n = i.n AND lk.successes = i.successes
           AND lk.test = (i."environmentId" IN (SELECT id FROM t)))`;
}

/** Stage 2 in one pass: included items by side and counts, and what each environment keeps. */
async function loadSideGroups(db: Db, facts: Prisma.Sql, one: StageOne) {
  const [row] = await scan<{ sides: string | null }[]>(
    db,
    Prisma.sql`
    WITH ${facts}, ${lookupRelation(one)}
    SELECT json_agg(json_build_array(g."byEnvironment", g."environmentId", g.test, g.n, g.successes, g.weak, g.problem, g.count, g.kept))::text AS sides
    FROM (
      SELECT (GROUPING(s."environmentId") = 0) AS "byEnvironment", s."environmentId", s.test, s.n, s.successes, s.weak,
             s.cls = 'problem' AS problem, count(*)::int AS count, (count(*) FILTER (WHERE NOT s.dropped))::int AS kept
      FROM s WHERE s.included
      GROUP BY GROUPING SETS ((s."environmentId"), (s.test, s.n, s.successes, s.weak, s.cls = 'problem'))) g`,
  );
  const sides: SideGroup[] = [];
  const keptByEnvironment = new Map<string, number>();
  for (const [byEnvironment, environmentId, test, n, successes, weak, problem, count, kept] of JSON.parse(
    row?.sides ?? "[]",
  ) as SideRow[]) {
    if (byEnvironment && environmentId) keptByEnvironment.set(environmentId, kept);
    else if (!byEnvironment)
      sides.push({
        test: test ?? false,
        n: n ?? 0,
        successes: successes ?? 0,
        weak: weak ?? false,
        problem: problem ?? false,
        count,
      });
  }
  return { sides, keptByEnvironment };
}

const pageColumns = Prisma.sql`s.id, s."environmentId", s."externalId", s.status, s.vals, s.pin, s.cls, s.proof, s.n, s.successes`;

async function loadIncludedPage(
  db: Db,
  facts: Prisma.Sql,
  one: StageOne,
  opts: PreviewOptions,
  page: PreviewPage,
) {
  const direction = opts.difficulty.sort === "p_signal" ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  const weakOnly = page.show === "weak" ? Prisma.sql`AND s.weak` : Prisma.empty;
  return scan<PageRow[]>(
    db,
    Prisma.sql`
    WITH ${facts}, ${lookupRelation(one)}
    SELECT ${pageColumns} FROM s WHERE s.included AND NOT s.dropped ${weakOnly}
    ORDER BY s.metric ${direction} NULLS LAST, ${byKey}
    OFFSET ${page.offset} LIMIT ${page.limit}`,
  );
}

/** Left out by verdict first, then by difficulty, each in key order (the plan's order). */
async function loadExcludedPage(db: Db, facts: Prisma.Sql, one: StageOne, page: PreviewPage) {
  return scan<PageRow[]>(
    db,
    Prisma.sql`
    WITH ${facts}, ${lookupRelation(one)}
    SELECT ${pageColumns} FROM s WHERE NOT s.included OR s.dropped
    ORDER BY s.included, ${byKey}
    OFFSET ${page.excludedOffset} LIMIT ${page.limit}`,
  );
}

/** Scenario ids of (environment, external id) pairs: the first scenario a reason's action names. */
async function scenarioIdsOf(db: Db, pairs: { environmentId: string; externalId: string }[]) {
  if (pairs.length === 0) return new Map<string, string>();
  const rows = await db.$queryRaw<{ id: string; environmentId: string; externalId: string }[]>`
    SELECT s.id, s."environmentId", s."externalId" FROM "Scenario" s
    JOIN unnest(${pairs.map((p) => p.environmentId)}::text[], ${pairs.map((p) => p.externalId)}::text[]) AS w(env, ext)
      ON s."environmentId" = w.env AND s."externalId" = w.ext`;
  return new Map(rows.map((r) => [`${r.environmentId}\u0000${r.externalId}`, r.id]));
}

async function validatorVersionNumbers(db: Db, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db.$queryRaw<{ id: string; version: number }[]>`
    SELECT id, version FROM "ValidatorVersion" WHERE id = ANY(${ids}::text[])`;
  return new Map(rows.map((r) => [r.id, r.version]));
}

/** The page's included items in full: per-model difficulty, strength, version numbers, notes. */
async function includedItems(
  db: Db,
  rows: PageRow[],
  envById: Map<string, PlanEnvironment>,
  split: Map<string, SplitName>,
  opts: PreviewOptions,
  versionOf: (id: string) => number,
): Promise<PlanItem[]> {
  const pinned = rows.map((r) => ({
    scenarioId: r.id,
    environmentVersionId: r.pin ?? "",
    validatorVersionIds: idList(r.vals) ?? [],
  }));
  const [counts, strengths, numbers] = await Promise.all([
    loadRolloutCounts(db, pinned),
    findPinnedStrengths(
      db,
      pinned.map((p) => ({ scenarioId: p.scenarioId, pins: p })),
    ),
    validatorVersionNumbers(db, [...new Set(pinned.flatMap((p) => p.validatorVersionIds))]),
  ]);
  const difficulty = difficultyOf(
    counts,
    rows.map((r) => r.id),
    opts.difficulty,
  );
  return rows.map((r, index) => {
    const env = envById.get(r.environmentId) as PlanEnvironment;
    const pins = pinned[index] as (typeof pinned)[number];
    const verdict = verdictOf(
      { cls: r.cls, accepted: r.status === "ACCEPTED", proof: r.proof },
      r.id,
      env,
      opts,
      versionOf,
    );
    const overridden = r.cls === "problem";
    return {
      scenarioId: r.id,
      key: planKey(env.slug, r.externalId),
      environmentId: env.id,
      environmentSlug: env.slug,
      environmentVersionId: pins.environmentVersionId,
      environmentVersion: versionOf(pins.environmentVersionId),
      validatorVersionIds: pins.validatorVersionIds,
      validatorVersions: pins.validatorVersionIds.map((id) => numbers.get(id) ?? 0),
      split: split.get(env.id) ?? "TRAIN",
      overridden,
      note: verdict.ok ? verdict.note : `override: ${verdict.reason}`,
      difficulty: difficulty.get(r.id) ?? null,
      strength: strengths.get(r.id) ?? null,
    };
  });
}

/** What either way of reading gives the assembly of the page. */
type PreviewReads = {
  environments: PlanEnvironment[];
  versionOf: (id: string) => number;
  groups: ClassGroup[];
  one: StageOne;
  sides: SideGroup[];
  keptByEnvironment: Map<string, number>;
  includedRows: PageRow[];
  excludedRows: PageRow[];
  firstIds: Map<string, string>;
};

/** The verdict firsts' scenario ids, read beside stage two. */
const firstsOf = (one: StageOne) =>
  one.verdictReasons.flatMap((r) =>
    r.first ? [{ environmentId: r.first.group.environmentId, externalId: r.first.externalId }] : [],
  );

/** Any choice: every scenario classified on its pin in SQL, then grouped and paged by scans. */
async function readClassified(
  db: Db,
  input: PlanInput,
  opts: PreviewOptions,
  page: PreviewPage,
): Promise<PreviewReads> {
  const facts = classified(input, opts);
  const [environments, { groups, pairs }] = await Promise.all([
    loadEnvironments(db, input),
    loadClassGroups(db, facts),
  ]);
  const versionOf = versionLookup(environments);
  const one = stageOne(groups, pairs, environments, opts, versionOf);
  const [{ sides, keptByEnvironment }, includedRows, excludedRows, firstIds] = await Promise.all([
    loadSideGroups(db, facts, one),
    loadIncludedPage(db, facts, one, opts, page),
    loadExcludedPage(db, facts, one, page),
    scenarioIdsOf(db, firstsOf(one)),
  ]);
  return {
    environments,
    versionOf,
    groups,
    one,
    sides,
    keptByEnvironment,
    includedRows,
    excludedRows,
    firstIds,
  };
}

/** Every scenario on its default pins: the kept facts answer as they are. */
const isDefaultPins = (opts: PreviewOptions) => Object.keys(opts.pins).length === 0 && !opts.override;

async function readOnDefaultPins(
  db: Db,
  input: PlanInput,
  opts: PreviewOptions,
  page: PreviewPage,
): Promise<PreviewReads> {
  const [environments, { pairs, lookup, groups, kept, totals }] = await Promise.all([
    loadEnvironments(db, input),
    loadPairs(db, input.projectId).then(async (pairs) => {
      const lookup = difficultyLookup(pairs, opts.difficulty);
      return { pairs, lookup, ...(await loadDefaultGroups(db, input, lookup)) };
    }),
  ]);
  const versionOf = versionLookup(environments);
  const one = stageOne(groups, pairs, environments, opts, versionOf);
  const keptByEnvironment = new Map<string, number>();
  for (const g of groups) {
    const onSide = kept.get(g)?.[one.split.get(g.environmentId) === "TEST" ? "test" : "train"] ?? 0;
    keptByEnvironment.set(g.environmentId, (keptByEnvironment.get(g.environmentId) ?? 0) + onSide);
  }
  const testIds = one.testEnvironmentIds;
  const [[sides, includedRows, excludedRows], firstIds] = await Promise.all([
    loadTestSide(db, input, testIds).then(async (testSide) => {
      const sides = sideGroups(totals, testSide);
      const [included, excluded] = await Promise.all([
        loadIncludedRuns(db, input, lookup, sides, testIds, page),
        loadExcludedRuns(db, input, groups, lookup, sides, testIds, page),
      ]);
      return [sides, included, excluded] as const;
    }),
    scenarioIdsOf(db, firstsOf(one)),
  ]);
  return {
    environments,
    versionOf,
    groups,
    one,
    sides,
    keptByEnvironment,
    includedRows,
    excludedRows,
    firstIds,
  };
}

export async function previewDatasetPage(
  db: Db,
  raw: CreateDatasetVersionInput,
  page: PreviewPage,
): Promise<DatasetPreviewPage> {
  const input = CreateDatasetVersionInputSchema.parse(raw);
  const opts: PreviewOptions = {
    pins: input.pins,
    override: Boolean(overrideReasonOf(input)),
    seed: input.seed,
    testRatio: input.testRatio,
    difficulty: input.difficulty,
  };
  const read = isDefaultPins(opts)
    ? await readOnDefaultPins(db, input, opts, page)
    : await readClassified(db, input, opts, page);
  const {
    environments,
    versionOf,
    groups,
    one,
    sides,
    keptByEnvironment,
    includedRows,
    excludedRows,
    firstIds,
  } = read;
  const envById = new Map(environments.map((e) => [e.id, e]));
  const two = stageTwo(one, groups, sides, keptByEnvironment, environments, opts);
  const included = await includedItems(db, includedRows, envById, one.split, opts, versionOf);
  const excluded = excludedRows.map((r) => {
    const env = envById.get(r.environmentId) as PlanEnvironment;
    const row = { ...r, accepted: r.status === "ACCEPTED" };
    return excludedItem(row, env, one.split.get(env.id) ?? "TRAIN", opts, versionOf);
  });
  const reasons = two.reasons.map(({ first, ...reason }) => {
    if (!first) return reason;
    const env = envById.get(first.group.environmentId) as PlanEnvironment;
    const id = firstIds.get(`${first.group.environmentId}\u0000${first.externalId}`) ?? "";
    const verdict = verdictOf(first.group, id, env, opts, versionOf);
    return verdict.ok || !verdict.action ? reason : { ...reason, action: verdict.action };
  });
  return {
    warnings: capWarnings(two.warnings),
    // Judged before the choice is built: building it sorts each environment's versions.
    environments: environments
      .filter((e) => needsChoice({ versions: e.versions, pinnedVersionId: envPinOf(e, opts) }))
      .map((e) => choiceOf(e, opts)),
    difficulty: two.summary,
    totals: { ...two.totals, shown: page.show === "weak" ? two.totals.weak : two.totals.included },
    reasons: orderReasons(reasons),
    included,
    excluded,
    page,
  };
}
