/**
 * `npm run bench -- rollouts`: rollout throughput against a fixed-latency scripted model, compared
 * with the ideal for the configured concurrency, and validator-proof throughput.
 *
 * Ideal: every rollout is `turns` sequential model calls of `latency` ms, so C concurrent lanes can
 * at best finish C × 60 000 / (turns × latency) rollouts a minute; the ratio measured/ideal is the
 * share of time not lost to the sandbox, the loop and accounting. The agent replays each sample
 * scenario's gold calls (real sandbox, real checks); every rollout has its own cache salt, so no
 * answer is served from the cache. Knobs: BENCH_LATENCY_MS, BENCH_CONCURRENCY, BENCH_ROLLOUTS.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type RolloutInput, runRollout } from "@/lib/rollout";
import { createSandboxRunner, type SandboxRunner } from "@/lib/sandbox";
import { proveValidators } from "@/lib/scenarios/proof";
import { loadSamples } from "@/prisma/seed/load-samples";
import { agentReply } from "@/tests/fake-openai/rollout-script";
import { startFakeOpenAi } from "@/tests/fake-openai/server";
import { createTestLlm } from "@/tests/fake-openai/test-llm";

const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 50);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const ROLLOUTS = Number(process.env.BENCH_ROLLOUTS ?? 24);
const PROOFS = Number(process.env.BENCH_PROOFS ?? 24);

const sample = loadSamples().find((s) => s.slug === "library-lending")!;
const scenarios = sample.scenarios;

async function pool(count: number, limit: number, task: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

async function benchRollouts(runner: SandboxRunner) {
  const fake = await startFakeOpenAi({ latencyMs: LATENCY_MS });
  const byTask = (text: string) => scenarios.find((s) => text === s.task) ?? scenarios[0]!;
  fake.setScript((body) => agentReply(body, byTask(body.messages[1]?.content ?? "").gold_calls ?? []));
  const { llm, recorder } = createTestLlm(fake.url, { concurrency: CONCURRENCY * 2 });
  const tools = await runner.extractTools(sample.source, sample.meta.env_class_name);
  if (!tools.ok) throw new Error(tools.error.message);
  const env = {
    source: sample.source,
    className: sample.meta.env_class_name,
    tools: tools.value,
    introduction: sample.meta.environment_introduction,
    rules: sample.meta.constraints_rules,
  };
  let turns = 0;
  let rewardSum = 0;
  const ends: Record<string, number> = {};
  const problems: string[] = [];
  const started = performance.now();
  await pool(ROLLOUTS, CONCURRENCY, async (i) => {
    const s = scenarios[i % scenarios.length]!;
    const input: RolloutInput = {
      mode: "non_conversational",
      task: s.task,
      env,
      initialState: s.init_config,
      checks: s.checklist_with_func.map((c) => c.check_func),
      model: "bench-agent",
      policy: { onTruncated: "zero", onCrash: "zero" },
      cacheSalt: `bench:${i}`,
    };
    const result = await runRollout(input, { llm, sandbox: runner });
    if (!result.ok) throw new Error(result.error.message);
    turns += result.value.stepCount;
    rewardSum += result.value.reward;
    ends[result.value.endReason] = (ends[result.value.endReason] ?? 0) + 1;
    const crash = result.value.steps.find((st) => st.type === "tool_call" && st.errorKind === "crash");
    if (crash) problems.push(JSON.stringify(crash.type === "tool_call" ? crash.observation : null));
    const checkError = result.value.checkResults.find((c) => "error" in c);
    if (checkError) problems.push(JSON.stringify(checkError));
  });
  const seconds = (performance.now() - started) / 1000;
  await fake.close();
  const perMinute = (ROLLOUTS / seconds) * 60;
  const ideal = (CONCURRENCY * 60_000) / ((turns / ROLLOUTS) * LATENCY_MS);
  if (problems.length) console.log(`sandbox problems (machine load): ${[...new Set(problems)].join(" | ")}`);
  return {
    perMinute,
    ideal,
    ratio: perMinute / ideal,
    meanTurns: turns / ROLLOUTS,
    meanReward: rewardSum / ROLLOUTS,
    llmCalls: recorder.calls.length,
    seconds,
    ends,
  };
}

async function benchProofs(runner: SandboxRunner) {
  const started = performance.now();
  let verified = 0;
  await pool(PROOFS, CONCURRENCY, async (i) => {
    const s = scenarios[i % scenarios.length]!;
    const checks = s.checklist_with_func.map((c, position) => ({
      position,
      item: c.check_item,
      code: c.check_func,
    }));
    const result = await proveValidators(
      {
        source: sample.source,
        className: sample.meta.env_class_name,
        initialState: s.init_config,
        checks,
        gold: { source: "scenario", calls: s.gold_calls ?? [] },
      },
      { sandbox: runner },
    );
    if (result.ok && result.value.status === "VERIFIED") verified += 1;
  });
  const seconds = (performance.now() - started) / 1000;
  return { perSecond: PROOFS / seconds, verified, seconds };
}

export async function main() {
  // One sandbox worker per lane, so the comparison with the ideal measures overhead, not queueing.
  const runner = createSandboxRunner({ poolSize: CONCURRENCY, spareWorkers: 1 });
  try {
    // Warm the sandbox pool so boot time is not billed to the first lane.
    await runner.runChecks({ checks: [], initialState: {}, finalState: {} });
    const r = await benchRollouts(runner);
    const p = await benchProofs(runner);
    const metrics = {
      latency_ms: LATENCY_MS,
      concurrency: CONCURRENCY,
      rollouts: ROLLOUTS,
      mean_turns: round(r.meanTurns),
      mean_reward: round(r.meanReward),
      rollouts_per_minute: round(r.perMinute),
      ideal_rollouts_per_minute: round(r.ideal),
      ratio_to_ideal: round(r.ratio),
      end_reasons: r.ends,
      proof_scenarios: PROOFS,
      proof_scenarios_per_second: round(p.perSecond),
      proof_verified: p.verified,
    };
    const targets = {
      ratio_to_ideal: ">= 0.5 (sandbox + loop overhead under half the model latency)",
      mean_reward: "1 (the scripted agent replays gold calls)",
      proof_verified: `${PROOFS} (all sample scenarios verify)`,
    };
    console.log(
      `rollouts: ${metrics.rollouts_per_minute}/min vs ideal ${metrics.ideal_rollouts_per_minute}/min at concurrency ${CONCURRENCY}, ${LATENCY_MS} ms/turn → ratio ${metrics.ratio_to_ideal} (mean ${metrics.mean_turns} turns, reward ${metrics.mean_reward})`,
    );
    console.log(
      `validator proof: ${metrics.proof_scenarios_per_second} scenarios/s (${p.verified}/${PROOFS} verified)`,
    );
    const out = join(dirname(fileURLToPath(import.meta.url)), "results", "rollouts.json");
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify({ name: "rollouts", metrics, targets }, null, 2) + "\n");
  } finally {
    await runner.close();
  }
}

const round = (x: number) => Math.round(x * 1000) / 1000;
