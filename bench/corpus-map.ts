/**
 * `npm run bench -- corpus-map`: the corpus map's server time at 10,000 environments.
 *
 * Seeds a scratch database with bulk SQL: 10,000 environments (5 % of them copies of others under
 * another slug, each sharing two helper methods with others, as generated environments share
 * vocabulary), 3 scenarios each with gold calls (two in three proven, a few stating an argument).
 * Then measures, in the same run:
 * - the first map's signature backfill (what a corpus imported before signatures existed pays once);
 * - p95 of the map's queries (getCorpusMap and each part) over BENCH_ITERATIONS runs;
 * - a naive baseline: read every version's code and every scenario, recompute signatures, compare
 *   all pairs and apply the coverage/leak rules in one process (BENCH_BASELINE_RUNS runs).
 * BENCH_KEEP_DB=1 keeps the scratch database (its URL is printed) for EXPLAIN.
 * Needs a PostgreSQL server (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else 127.0.0.1:5432).
 */
import { performance } from "node:perf_hooks";
import { estimateJaccard, jaccard } from "../lib/corpus/minhash";
import { clusterPairs, type SimilarPair } from "../lib/corpus/duplicates";
import { findLeaks } from "../lib/corpus/leakage";
import { computeEnvironmentSignature, toolSignatures } from "../lib/corpus/signature";
import type { CorpusScope } from "../lib/corpus/corpus.schema";
import { ensureSignatures } from "../lib/corpus/server/ensure-signatures";
import { findCoverage } from "../lib/corpus/server/find-coverage";
import { findDuplicates } from "../lib/corpus/server/find-duplicates";
import { findLeaksPage } from "../lib/corpus/server/find-leaks";
import { findSplits } from "../lib/corpus/server/find-splits";
import { getCorpusMap } from "../lib/corpus/server/get-corpus-map";
import { createDb, type Db } from "../lib/db";
import { GoldCallsSchema } from "../lib/scenarios/scenario.schema";
import { percentile, round, writeResult } from "./bench-util";
import { scratchDatabase } from "./pipeline/setup";

const ENVS = Number(process.env.BENCH_ENVS ?? 10_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 10);
const BASELINE_RUNS = Number(process.env.BENCH_BASELINE_RUNS ?? 1);
const COPY_SHARE = 0.05;
const HELPERS = 40;

const helper = (h: number) => `
    def lookup_${h}(self, user_id: str) -> dict:
        record = self.records.get(user_id)
        if record is None:
            return {"success": False, "error": "unknown user"}
        record["seen_${h}"] = record.get("seen_${h}", 0) + 1
        return {"success": True, "data": record}
`;

/** Environment i's code: its own noun's three methods plus two of the shared helpers. */
function envSource(noun: string, i: number) {
  return `
class ${noun}Desk:
    """Manages ${noun} records."""
    def __init__(self, init_config=None):
        self.records = {}
        self.${noun}_items = {}
        self.${noun}_history = []

    def add_${noun}(self, ${noun}_id: str, ${noun}_title: str, quantity: int) -> dict:
        if ${noun}_id in self.${noun}_items:
            return {"success": False, "error": "already there"}
        self.${noun}_items[${noun}_id] = {"title": ${noun}_title, "quantity": quantity}
        self.${noun}_history.append(("add", ${noun}_id, quantity))
        return {"success": True, "data": self.${noun}_items[${noun}_id]}

    def update_${noun}(self, ${noun}_id: str, ${noun}_title: str) -> dict:
        ${noun}_item = self.${noun}_items.get(${noun}_id)
        if ${noun}_item is None:
            return {"success": False, "error": "missing"}
        ${noun}_item["title"] = ${noun}_title
        self.${noun}_history.append(("update", ${noun}_id))
        return {"success": True, "data": ${noun}_item}

    def list_${noun}(self, limit: int = 10) -> dict:
        return {"success": True, "data": sorted(self.${noun}_items)[:limit]}
${helper((i * 7) % HELPERS)}${helper((i * 13 + 5) % HELPERS)}`;
}

const tool = (name: string, params: string[]) => ({
  type: "function",
  function: {
    name,
    description: "",
    parameters: { type: "object", properties: Object.fromEntries(params.map((p) => [p, {}])), required: [] },
  },
});

function envTools(noun: string, i: number) {
  return [
    tool(`add_${noun}`, [`${noun}_id`, `${noun}_title`, "quantity"]),
    tool(`update_${noun}`, [`${noun}_id`, `${noun}_title`]),
    tool(`list_${noun}`, ["limit"]),
    tool(`lookup_${(i * 7) % HELPERS}`, ["user_id"]),
    tool(`lookup_${(i * 13 + 5) % HELPERS}`, ["user_id"]),
  ];
}

async function seed(db: Db) {
  const project = await db.project.create({ data: { slug: "bench-corpus", name: "bench" } });
  const originals = Math.round(ENVS * (1 - COPY_SHARE));
  const t0 = performance.now();
  for (let start = 0; start < ENVS; start += 1000) {
    const rows = Array.from({ length: Math.min(1000, ENVS - start) }, (_, k) => {
      const i = start + k;
      const base = i < originals ? i : i - originals; // a copy takes an original's code under its own slug
      const noun = `topic${base}`;
      return { i, source: envSource(noun, base), tools: JSON.stringify(envTools(noun, base)) };
    });
    await db.$executeRaw`
      WITH r AS (
        SELECT * FROM unnest(${rows.map((r) => r.i)}::int[], ${rows.map((r) => r.source)}::text[],
          ${rows.map((r) => r.tools)}::text[]) AS t(i, source, tools)),
      e AS (
        INSERT INTO "Environment" ("id", "projectId", "slug", "name", "domain", "status", "origin", "toolCount", "updatedAt")
        SELECT 'env-' || r.i, ${project.id}, 'env-' || r.i, 'Environment ' || r.i, 'domain-' || (r.i % 30),
          'ACCEPTED', 'IMPORT', 5, now() FROM r RETURNING "id")
      INSERT INTO "EnvironmentVersion" ("id", "environmentId", "version", "className", "source", "sourceHash", "tools", "producedBy")
      SELECT 'ver-' || r.i, 'env-' || r.i, 1, 'Desk', r.source, md5(r.source), r.tools::jsonb, 'import' FROM r`;
  }
  await db.$executeRaw`UPDATE "Environment" SET "currentVersionId" = 'ver-' || substr("id", 5) WHERE "projectId" = ${project.id}`;
  // Three scenarios per environment: gold calls add then look up; every 20th task states the title.
  await db.$executeRaw`
    INSERT INTO "Scenario" ("id", "environmentId", "environmentVersionId", "externalId", "initialState", "task",
      "taskHash", "goldCalls", "status", "proofStatus", "origin", "updatedAt")
    SELECT 'scn-' || e.n || '-' || k, e."id", e."currentVersionId", 'task-' || k, '{}'::jsonb,
      CASE WHEN (e.n + k) % 20 = 0 THEN 'Add the item titled Grand Atlas Volume ' || k || ' and check the user.'
           ELSE 'Add an item for the user and check them.' END,
      md5(e."id" || k),
      jsonb_build_array(
        jsonb_build_object('name', 'add_topic' || e.base, 'arguments',
          jsonb_build_object('topic' || e.base || '_id', 'T-' || k, 'topic' || e.base || '_title', 'Grand Atlas Volume ' || k, 'quantity', 2)),
        jsonb_build_object('name', 'lookup_' || ((e.base * 7) % ${HELPERS}), 'arguments', jsonb_build_object('user_id', 'U' || k))),
      'ACCEPTED', (CASE WHEN k = 3 THEN 'PENDING' ELSE 'VERIFIED' END)::"ProofStatus", 'IMPORT', now()
    FROM (SELECT "id", "currentVersionId", substr("id", 5)::int AS n,
            CASE WHEN substr("id", 5)::int < ${originals} THEN substr("id", 5)::int ELSE substr("id", 5)::int - ${originals} END AS base
          FROM "Environment" WHERE "projectId" = ${project.id}) e, generate_series(1, 3) AS k`;
  await db.$executeRaw`ANALYZE`;
  return { projectId: project.id, seedMs: performance.now() - t0, copies: ENVS - originals };
}

async function timeIt<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const value = await fn();
  return [performance.now() - t, value];
}

async function p95(fn: () => Promise<unknown>, runs = ITERATIONS) {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) times.push((await timeIt(fn))[0]);
  return round(
    percentile(
      times.sort((a, b) => a - b),
      95,
    ),
  );
}

/** The naive map: every version's code and every scenario into this process, all pairs compared. */
async function naiveMap(db: Db, projectId: string) {
  const versions = await db.$queryRaw<{ id: string; source: string; tools: unknown }[]>`
    SELECT v."id", v."source", v."tools" FROM "Environment" e JOIN "EnvironmentVersion" v ON v."id" = e."currentVersionId"
    WHERE e."projectId" = ${projectId} AND e."status" <> 'REJECTED'`;
  const sigs = versions.map((v) => ({
    id: v.id,
    ...computeEnvironmentSignature(v),
    tools: new Set(toolSignatures(v.tools)),
  }));
  const pairs: SimilarPair[] = [];
  for (let x = 0; x < sigs.length; x += 1)
    for (let y = x + 1; y < sigs.length; y += 1) {
      const [a, b] = [sigs[x]!, sigs[y]!];
      const code = estimateJaccard(a.codeMinhash, b.codeMinhash);
      const tools = estimateJaccard(a.toolMinhash, b.toolMinhash) >= 0.5 ? jaccard(a.tools, b.tools) : 0;
      if (code >= 0.7 || tools >= 0.8)
        pairs.push({
          a: a.id,
          b: b.id,
          codeSimilarity: code,
          toolSimilarity: tools,
          toolsA: a.tools.size,
          toolsB: b.tools.size,
        });
    }
  const clusters = clusterPairs(pairs);
  const scenarios = await db.$queryRaw<{ vid: string; task: string; gold: unknown; proven: boolean }[]>`
    SELECT e."currentVersionId" AS vid, s."task", s."goldCalls" AS gold, s."proofStatus" = 'VERIFIED' AS proven
    FROM "Scenario" s JOIN "Environment" e ON e."id" = s."environmentId" WHERE e."projectId" = ${projectId}`;
  const used = new Set<string>();
  let leaks = 0;
  for (const s of scenarios) {
    const gold = GoldCallsSchema.safeParse(s.gold).data ?? [];
    if (s.proven) for (const c of gold) used.add(`${s.vid} ${c.name.toLowerCase()}`);
    if (findLeaks(s.task, gold).length) leaks += 1;
  }
  return { clusters: clusters.length, leaks, covered: used.size };
}

export async function main() {
  const { url, drop } = await scratchDatabase();
  const db = createDb(url, 8);
  try {
    const { projectId, seedMs, copies } = await seed(db);
    const scope: CorpusScope = { kind: "corpus", projectId };
    const [backfillMs, written] = await timeIt(() => ensureSignatures(db, scope));
    const query = { clusters: 1, leaks: 1 };
    const first = await getCorpusMap(db, projectId, query);
    if (first.duplicates.clusterCount < copies)
      throw new Error(`found ${first.duplicates.clusterCount} clusters, seeded ${copies}`);
    const metrics: Record<string, number> = {
      environments: ENVS,
      scenarios: first.splits.scenarios,
      clusters_found: first.duplicates.clusterCount,
      copies_seeded: copies,
      leaks_found: first.leaks.total,
      seed_ms: round(seedMs),
      signatures_backfilled: written,
      backfill_ms: round(backfillMs),
      map_p95_ms: await p95(() => getCorpusMap(db, projectId, query)),
      duplicates_p95_ms: await p95(() => findDuplicates(db, scope, 1)),
      coverage_p95_ms: await p95(() => findCoverage(db, scope)),
      leaks_p95_ms: await p95(() => findLeaksPage(db, scope, 1)),
      splits_p95_ms: await p95(() => findSplits(db, scope)),
      last_cluster_page_p95_ms: await p95(() => getCorpusMap(db, projectId, { clusters: 1_000, leaks: 1 })),
    };
    const baselineTimes: number[] = [];
    let naive = { clusters: 0, leaks: 0, covered: 0 };
    for (let i = 0; i < BASELINE_RUNS; i += 1) {
      const [ms, result] = await timeIt(() => naiveMap(db, projectId));
      baselineTimes.push(ms);
      naive = result;
    }
    metrics.baseline_ms = round(Math.max(...baselineTimes));
    metrics.baseline_clusters = naive.clusters;
    metrics.speedup_vs_baseline = round(metrics.baseline_ms / Math.max(metrics.map_p95_ms ?? 1, 1), 1);
    writeResult("corpus-map", metrics, {
      map_p95_ms: "< 1500 at 10,000 environments (30,000 scenarios) on a 2-core machine",
      speedup_vs_baseline: "≥ 10 (the naive map re-reads all code and compares all pairs)",
      clusters_found: "≥ copies_seeded (every seeded copy is found)",
    });
  } finally {
    await db.$disconnect();
    if (process.env.BENCH_KEEP_DB) console.log(`kept ${url}`);
    else await drop();
  }
}
