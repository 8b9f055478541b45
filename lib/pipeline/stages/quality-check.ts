/**
 * Quality check, step 2 (spec §4.2–4.3): the dual-agent loop. Each round the tester proposes a
 * call, the sandbox executes it (never in-process: spec §12.2 #16), and the judge grades it.
 * A call that crashes or times out the sandbox is a FAIL by itself and the episode is reloaded from
 * the last state. Rounds without a usable proposal or verdict are recorded in `roundErrors`.
 * Keep when not-fail rate ≥ threshold; zero graded rounds never passes (no division by zero).
 */
import { type Result, err, ok } from "../../core/result";
import type { LlmError } from "../../llm";
import type { Episode, Tool } from "../../sandbox";
import type { Assembled, Method, Probe, QualityOutput, StateSpace, Topic } from "../pipeline.schema";
import type { StepError } from "../../core/run";
import type { StageDeps, StageResult } from "./deps";
import { type Proposal, type ToolStats, judgeCall, proposeCall } from "./quality-agents";

export type QualityInput = {
  topic: Topic;
  state: StateSpace;
  assembled: Assembled;
  methods: Method[];
  initialState: Record<string, unknown>;
  rounds: number;
  threshold: number;
};

/** After this many rounds in a row without a usable answer, the loop stops early. */
const MAX_CONSECUTIVE_ROUND_ERRORS = 3;

/** Transient, budget and cancellation errors stop the step (the job layer decides what next). */
const isStepError = (e: LlmError) => e.retryable || e.code === "BUDGET_EXCEEDED" || e.code === "CANCELLED";

export function scoreProbes(
  probes: Probe[],
  rounds: number,
  threshold: number,
  roundErrors: string[],
): QualityOutput {
  const count = (v: Probe["verdict"]) => probes.filter((p) => p.verdict === v).length;
  const [passCount, warningCount, failCount] = [count("PASS"), count("WARNING"), count("FAIL")];
  const total = probes.length;
  const notFailRate = total ? (passCount + warningCount) / total : 0;
  return {
    probes,
    rounds,
    passCount,
    warningCount,
    failCount,
    passRate: total ? passCount / total : 0,
    notFailRate,
    threshold,
    passed: total > 0 && notFailRate >= threshold,
    roundErrors,
  };
}

async function loadEpisode(
  input: QualityInput,
  state: Record<string, unknown>,
  deps: StageDeps,
): Promise<Result<Episode, StepError>> {
  const { source, className, tools } = input.assembled;
  const names = (tools as Tool[]).map((t) => t.function.name);
  return deps.sandbox.load({ source, className, initialState: state, tools: names });
}

type RoundContext = {
  input: QualityInput;
  episode: Episode;
  stats: ToolStats;
  index: number;
  deps: StageDeps;
};
type RoundOutcome =
  | { probe: Probe; nextState: Record<string, unknown> | null }
  | { roundError: string }
  | { stepError: StepError };

type Proposed = Awaited<ReturnType<typeof proposeCall>>;

async function runRound(
  ctx: RoundContext,
  stateBefore: Record<string, unknown>,
  proposed?: Proposed,
): Promise<RoundOutcome> {
  const { input, episode, deps } = ctx;
  const proposal =
    proposed ??
    (await proposeCall(
      {
        introduction: input.topic.introduction,
        tools: episode.tools(),
        stats: ctx.stats,
        state: stateBefore,
      },
      deps,
    ));
  if (!proposal.ok)
    return isStepError(proposal.error)
      ? { stepError: proposal.error }
      : { roundError: `round ${ctx.index}: tester: ${proposal.error.message}` };
  const call: Proposal = proposal.value.value;
  const step = await episode.step(call.tool, call.arguments);
  const base = {
    index: ctx.index,
    kind: call.case_type,
    toolName: call.tool,
    arguments: call.arguments,
    thought: call.thought,
  };
  if (!step.ok) {
    // The sandbox ended the episode (timeout, memory, crash): a failure of the tool itself.
    return {
      probe: {
        ...base,
        observation: { error: step.error.message, code: step.error.code },
        stateDiff: null,
        verdict: "FAIL",
        rationale: `The call ended the sandbox episode: ${step.error.code}: ${step.error.message}`,
      },
      nextState: null,
    };
  }
  const after = await episode.state();
  const methodSource = input.methods.find((m) => m.name === call.tool)?.code ?? "(source unavailable)";
  const judged = await judgeCall(
    {
      introduction: input.topic.introduction,
      rules: input.state.rules,
      methodSource,
      proposal: call,
      stateBefore,
      observation: step.value.observation,
      diff: step.value.diff,
    },
    deps,
  );
  if (!judged.ok)
    return isStepError(judged.error)
      ? { stepError: judged.error }
      : { roundError: `round ${ctx.index}: judge: ${judged.error.message}` };
  const probe: Probe = {
    ...base,
    observation: step.value.observation,
    stateDiff: step.value.diff,
    ...judged.value,
  };
  return { probe, nextState: after.ok ? after.value : null };
}

function countProbe(stats: ToolStats, probe: Probe) {
  const s = (stats[probe.toolName] ??= { total: 0, positive: 0, negative: 0, PASS: 0, WARNING: 0, FAIL: 0 });
  s.total += 1;
  s[probe.kind] += 1;
  s[probe.verdict] += 1;
}

const emptyStats = (tools: Tool[]): ToolStats =>
  Object.fromEntries(
    tools.map((t) => [t.function.name, { total: 0, positive: 0, negative: 0, PASS: 0, WARNING: 0, FAIL: 0 }]),
  );

export async function runQualityCheck(input: QualityInput, deps: StageDeps): StageResult<QualityOutput> {
  let state = input.initialState;
  // The first proposal needs only the tool schemas (extracted at assembly, as the load extracts
  // them) and the initial state: it is asked while the sandbox loads the episode, so the load no
  // longer delays the environment's first model call.
  const tools = input.assembled.tools as Tool[];
  const [loaded, firstProposal] = await Promise.all([
    loadEpisode(input, state, deps),
    proposeCall({ introduction: input.topic.introduction, tools, stats: emptyStats(tools), state }, deps),
  ]);
  let episode = loaded;
  if (!episode.ok) return episode;
  const stats = emptyStats(episode.value.tools());
  const probes: Probe[] = [];
  const roundErrors: string[] = [];
  let consecutiveErrors = 0;
  try {
    for (
      let index = 0;
      index < input.rounds && consecutiveErrors < MAX_CONSECUTIVE_ROUND_ERRORS;
      index += 1
    ) {
      const outcome = await runRound(
        { input, episode: episode.value, stats, index, deps },
        state,
        index === 0 ? firstProposal : undefined,
      );
      if ("stepError" in outcome) return err(outcome.stepError);
      if ("roundError" in outcome) {
        roundErrors.push(outcome.roundError);
        consecutiveErrors += 1;
        continue;
      }
      consecutiveErrors = 0;
      probes.push(outcome.probe);
      countProbe(stats, outcome.probe);
      if (outcome.nextState) state = outcome.nextState;
      else {
        await episode.value.close();
        episode = await loadEpisode(input, state, deps);
        if (!episode.ok) return episode;
      }
    }
  } finally {
    if (episode.ok) await episode.value.close();
  }
  return ok(scoreProbes(probes, input.rounds, input.threshold, roundErrors));
}
