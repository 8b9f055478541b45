/**
 * `BENCH_DEBUG=1 npm run bench -- pipeline`: where a run's time went. Requests in flight per
 * 2-second window (by stage), when the first requests arrived, and per stage of the environment
 * chain: the hand-off from the previous step, the time from a step's start to its first LLM call
 * and from its last call to its end (sandbox checks and the commit), and the step's duration.
 */
import type { Db } from "../../lib/db";
import type { EndpointRecord } from "./fake-endpoint";

const CHAIN = ["state", "state_code", "operations", "methods", "assemble", "test_state", "quality"];
const avg = (xs: number[]) => (xs.length ? Math.round(xs.reduce((a, b) => a + b, 0) / xs.length) : NaN);

export function printInFlight(requests: EndpointRecord[], started: number, wallMs: number) {
  console.log(
    "  first requests at ms:",
    requests
      .slice(0, 24)
      .map((r) => r.at - started)
      .join(" "),
  );
  // The endpoint's own latency (the scripted latency, unless its process was too busy to answer on time).
  const served = (rs: EndpointRecord[]) =>
    avg(rs.filter((r) => r.respondedAt).map((r) => r.respondedAt! - r.at));
  console.log(
    `  served after (ms, mean): all ${served(requests)}, first 8 s ${served(requests.filter((r) => r.at < started + 8000))}`,
  );
  for (let t = 0; t < wallMs; t += 2000) {
    const w0 = started + t;
    const busy = requests.reduce(
      (a, r) => a + Math.max(0, Math.min(r.respondedAt ?? 0, w0 + 2000) - Math.max(r.at, w0)),
      0,
    );
    const byStage: Record<string, number> = {};
    for (const r of requests) {
      if (r.at < w0 || r.at >= w0 + 2000) continue;
      const stage = r.stage ?? "?";
      byStage[stage] = (byStage[stage] ?? 0) + 1;
    }
    console.log(`  t=${t / 1000}s in-flight avg ${(busy / 2000).toFixed(1)} ${JSON.stringify(byStage)}`);
  }
}

export async function printStageTimings(db: Db, runId: string, started: number) {
  const steps = await db.pipelineStep.findMany({
    where: { runId },
    select: { id: true, subjectKey: true, stage: true, startedAt: true, finishedAt: true },
  });
  const calls = await db.llmCall.findMany({
    where: { runId },
    select: { stepId: true, createdAt: true, latencyMs: true },
  });
  const at = (d: Date | null) => d?.getTime() ?? NaN;
  const finished = new Map(steps.map((s) => [`${s.subjectKey}:${s.stage}`, at(s.finishedAt)]));
  console.log(
    "  stage: hand-off | start→first call | last call→end | duration (ms, averages over the chains)",
  );
  for (const [i, stage] of CHAIN.entries()) {
    const rows = steps.filter((s) => s.stage === stage);
    const handOff = rows.map(
      (s) => at(s.startedAt) - (i > 0 ? (finished.get(`${s.subjectKey}:${CHAIN[i - 1]}`) ?? NaN) : started),
    );
    const own = rows.map((s) => calls.filter((c) => c.stepId === s.id));
    const toFirst = rows.flatMap((s, k) =>
      own[k]!.length
        ? [Math.min(...own[k]!.map((c) => at(c.createdAt) - c.latencyMs)) - at(s.startedAt)]
        : [],
    );
    const fromLast = rows.flatMap((s, k) =>
      own[k]!.length ? [at(s.finishedAt) - Math.max(...own[k]!.map((c) => at(c.createdAt)))] : [],
    );
    const startedAt = rows.map((s) => at(s.startedAt) - started);
    console.log(
      `  ${stage.padEnd(10)} ${avg(handOff)} | ${avg(toFirst)} | ${avg(fromLast)} | ${avg(rows.map((s) => at(s.finishedAt) - at(s.startedAt)))}   (started ${Math.min(...startedAt)}–${Math.max(...startedAt)} ms)`,
    );
  }
}
