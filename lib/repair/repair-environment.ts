/**
 * Environment-code repair, proven before anyone sees it: for tools the quality check condemned
 * (probe verdict FAIL, with the judge's rationale), the model gets the environment's code and the
 * failing probes and answers with complete method definitions; they replace exactly those methods
 * of the class (spliced in the sandbox; a method it was not asked about is refused). The proof
 * re-runs every failing probe's call on the changed code and has the judge grade it again (none may
 * FAIL), and re-proves the environment's scenarios that were verified against the changed code:
 * a fix that breaks a sibling scenario is not a fix.
 */
import { type Result, err, ok } from "../core/result";
import type { StepError } from "../core/run";
import { chatParsed, DEFAULT_MAX_REASKS, extractPythonBlock } from "../llm";
import { judgeCall } from "../pipeline/stages/quality-agents";
import { analysisMarkers } from "../environments/markers";
import type { JsonObject, SandboxRunner, Tool } from "../sandbox";
import { type ProofInput, proveValidators } from "../scenarios/proof";
import { clip, diagnosisOf, repairTag } from "./check-prompt";
import type { RepairDeps } from "./repair-checks";
import type { EnvironmentProof, FailingProbe, RerunProbe, SiblingProof } from "./repair.schema";

export type { FailingProbe } from "./repair.schema";

export type EnvironmentRepairInput = {
  source: string;
  className: string;
  introduction: string;
  rules: string[];
  testState: JsonObject;
  probes: FailingProbe[];
  /** The environment's scenarios verified against the current code, by name. */
  siblings: (Omit<ProofInput, "source" | "className"> & { name: string })[];
};

export type EnvironmentRepair = {
  source: string;
  replaced: string[];
  /** The tools of the changed code (empty when no usable patch came). */
  tools: Tool[];
  summary: string;
  status: "PROVEN" | "FAILED";
  reasons: string[];
  /** The failing probes re-run and re-judged, and the siblings re-proven; null without a usable patch. */
  after: EnvironmentProof | null;
};

const ENV_SYSTEM = `${repairTag("repair_environment")}
You repair tools (methods) of a stateful Python environment class. A quality check called them and
a judge found the calls wrong. Rules:
- fix what the evidence shows; follow the rules of the environment and each method's docstring,
  and make code and docstring agree;
- persist every state change in the instance's state;
- send only complete definitions of the methods you were asked about, nothing else (no imports,
  no other methods, no class body).
Answer in two sections:
# Diagnosis
<one or two sentences: what was wrong>
# Fix
\`\`\`python
def method_name(self, ...):
    ...
\`\`\``;

function environmentMessages(input: EnvironmentRepairInput) {
  const probes = input.probes
    .map(
      (p, i) =>
        `${i + 1}. ${p.toolName}(${JSON.stringify(p.arguments)}) [${p.kind} case]\n   returned: ${clip(JSON.stringify(p.observation) ?? "null", 1500)}\n   state diff: ${clip(JSON.stringify(p.stateDiff) ?? "null", 1500)}\n   judge: FAIL — ${p.rationale}`,
    )
    .join("\n");
  const tools = [...new Set(input.probes.map((p) => p.toolName))];
  const user = [
    `# Environment\n${input.introduction}`,
    `# Rules\n${input.rules.map((r) => `- ${r}`).join("\n")}`,
    `# Failing quality probes (on the test state)\n${probes}`,
    `# Methods to repair\n${tools.join(", ")}`,
    `# Environment code\n\`\`\`python\n${input.source.trimEnd()}\n\`\`\``,
  ].join("\n\n");
  return [
    { role: "system" as const, content: ENV_SYSTEM },
    { role: "user" as const, content: user },
  ];
}

export type EnvironmentRepairDeps = RepairDeps & {
  sandbox: RepairDeps["sandbox"] & Pick<SandboxRunner, "analyze">;
  /** The quality check's judge, grading the re-run probes. */
  judgeModel: string;
};

async function proposeEnvironmentPatch(input: EnvironmentRepairInput, deps: EnvironmentRepairDeps) {
  const allowed = [...new Set(input.probes.map((p) => p.toolName))];
  const reply = await chatParsed(
    deps.llm,
    {
      model: deps.model,
      temperature: 0,
      cacheSalt: deps.cacheSalt,
      purpose: `repair environment: ${allowed.join(", ").slice(0, 60)}`,
      messages: environmentMessages(input),
    },
    async (r) => {
      const patch = extractPythonBlock(r.content);
      if (!patch.ok) return patch;
      const spliced = await deps.sandbox.splice({
        source: input.source,
        patch: patch.value,
        className: input.className,
        allowed,
      });
      if (!spliced.ok) throw new Error(`the sandbox could not read the patch: ${spliced.error.message}`);
      if (!spliced.value.ok) return err(spliced.value.refusal);
      // The changed code must be saveable as a version: it parses, defines the class, imports
      // nothing the sandbox forbids; its tools are what the new version will list.
      const analysis = await deps.sandbox.analyze({
        source: spliced.value.source,
        className: input.className,
      });
      if (!analysis.ok)
        throw new Error(`the sandbox could not analyse the patched code: ${analysis.error.message}`);
      const blocking = analysisMarkers(analysis.value, input.className).filter((m) => m.severity === "error");
      if (blocking.length > 0)
        return err(`the patched code cannot be saved: ${blocking.map((m) => m.message).join("; ")}`);
      const summary = diagnosisOf(r.content, `repaired ${spliced.value.replaced.join(", ")}`);
      return ok({
        source: spliced.value.source,
        replaced: spliced.value.replaced,
        tools: analysis.value.tools,
        summary,
      });
    },
    deps.maxReasks ?? DEFAULT_MAX_REASKS,
  );
  return reply.ok ? ok(reply.value.value) : reply;
}

/** Each failing probe's call again, on the changed code, graded by the judge: what it did now. */
async function rerunProbes(
  input: EnvironmentRepairInput,
  source: string,
  deps: EnvironmentRepairDeps,
): Promise<Result<{ probes: RerunProbe[]; loadError: string | null }, StepError>> {
  const probes: RerunProbe[] = [];
  for (const probe of input.probes) {
    const loaded = await deps.sandbox.load({
      source,
      className: input.className,
      initialState: input.testState,
    });
    if (!loaded.ok)
      return loaded.error.code === "SANDBOX_UNAVAILABLE"
        ? err(loaded.error)
        : ok({ probes, loadError: `the changed code does not load: ${loaded.error.message}` });
    const episode = loaded.value;
    const rerun = { toolName: probe.toolName, kind: probe.kind, arguments: probe.arguments };
    try {
      const step = await episode.step(probe.toolName, probe.arguments);
      if (!step.ok) {
        probes.push({
          ...rerun,
          observation: null,
          stateDiff: null,
          verdict: "CRASHED",
          rationale: step.error.message,
        });
        continue;
      }
      const judged = await judgeCall(
        {
          introduction: input.introduction,
          rules: input.rules,
          methodSource: source,
          proposal: {
            tool: probe.toolName,
            arguments: probe.arguments,
            case_type: probe.kind === "negative" ? "negative" : "positive",
            thought: "",
          },
          stateBefore: input.testState,
          observation: step.value.observation,
          diff: step.value.diff,
        },
        {
          llm: deps.llm,
          sandbox: deps.sandbox,
          models: {
            topic: deps.judgeModel,
            logic: deps.judgeModel,
            code: deps.judgeModel,
            testState: deps.judgeModel,
            tester: deps.judgeModel,
            judge: deps.judgeModel,
            embedding: null,
          },
          cacheSalt: deps.cacheSalt,
        },
      );
      if (!judged.ok) return err(judged.error);
      probes.push({
        ...rerun,
        observation: step.value.observation,
        stateDiff: step.value.diff,
        verdict: judged.value.verdict,
        rationale: judged.value.rationale,
      });
    } finally {
      await episode.close();
    }
  }
  return ok({ probes, loadError: null });
}

/** Why a re-run probe still condemns the code, or null. */
const probeFailure = (p: RerunProbe) =>
  p.verdict === "CRASHED"
    ? `${p.toolName} crashed: ${p.rationale}`
    : p.verdict === "FAIL"
      ? `the probe ${p.toolName} still fails: ${p.rationale}`
      : null;

export async function repairEnvironment(
  input: EnvironmentRepairInput,
  deps: EnvironmentRepairDeps,
): Promise<Result<EnvironmentRepair, StepError>> {
  if (input.probes.length === 0)
    return err({
      code: "NOT_FAILING",
      message: "no quality probe failed: nothing to repair",
      retryable: false,
    });
  const patch = await proposeEnvironmentPatch(input, deps);
  if (!patch.ok) {
    if (patch.error.retryable || patch.error.code !== "PARSE_FAILED") return err(patch.error);
    return ok({
      source: input.source,
      replaced: [],
      tools: [],
      summary: "no usable patch",
      status: "FAILED",
      reasons: [patch.error.message],
      after: null,
    });
  }
  const rerun = await rerunProbes(input, patch.value.source, deps);
  if (!rerun.ok) return rerun;
  const reasons = rerun.value.probes.flatMap((p) => probeFailure(p) ?? []);
  if (rerun.value.loadError) reasons.push(rerun.value.loadError);
  const siblings: SiblingProof[] = [];
  for (const sibling of input.siblings) {
    const proof = await proveValidators(
      { ...sibling, source: patch.value.source, className: input.className },
      deps,
    );
    if (!proof.ok) return err(proof.error);
    const why = proof.value.reasons.map((r) => r.message);
    siblings.push({ name: sibling.name, status: proof.value.status, reasons: why });
    if (proof.value.status !== "VERIFIED") reasons.push(`breaks scenario ${sibling.name}: ${why.join("; ")}`);
  }
  return ok({
    ...patch.value,
    status: reasons.length ? "FAILED" : "PROVEN",
    reasons,
    after: { probes: rerun.value.probes, siblings },
  });
}
