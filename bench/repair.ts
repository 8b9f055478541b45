/**
 * `npm run bench -- repair`: repair precision on the seeded defect corpus (tests/repair). Each of
 * the 12 defects (a check of a sample scenario broken in a distinct way) is repaired four times by
 * a scripted model answering with the right fix, a wrong fix, a trivially-true fix or garbage, with
 * the real sandbox and the real proof.
 *
 * - precision: of the proposals the studio offers as proven, the share that are the right fix;
 * - wrong fixes caught: of the wrong and trivially-true fixes, the share whose proof failed;
 * - wall time per item: one repair (proof of the current checks, gold trace, ask, splice, proof
 *   of the proposal), mean and p95.
 * Baseline in the same run: what a peer-style acceptance would offer — a patch whose check runs on
 * the initial state without raising (the "code runs without error" rule) — over the same replies.
 */
import { extractPythonBlock } from "@/lib/llm";
import { type RepairSandbox, repairScenarioChecks } from "@/lib/repair/repair-checks";
import { createSandboxRunner } from "@/lib/sandbox";
import { verifyCheckFunc } from "@/lib/scenarios/stages/generate-check-func";
import { startFakeOpenAi } from "@/tests/fake-openai/server";
import { createTestLlm } from "@/tests/fake-openai/test-llm";
import {
  CHECK_DEFECTS,
  type CheckDefect,
  GARBAGE,
  TRIVIAL_FIX,
  answerWith,
  defectSubject,
} from "@/tests/repair/defect-corpus";
import { repairInputFor } from "@/tests/repair/repair-input";
import { percentile, round, writeResult } from "./bench-util";
import { type EnvRow, environmentLane } from "./repair-environment-lane";

type Answer = "right" | "wrong" | "trivial" | "garbage";
const ANSWERS: Answer[] = ["right", "wrong", "trivial", "garbage"];

const codeFor = (defect: CheckDefect, answer: Answer) =>
  answer === "right" ? defectSubject(defect).right : answer === "wrong" ? defect.wrong : TRIVIAL_FIX;
const replyFor = (defect: CheckDefect, answer: Answer) =>
  answer === "garbage" ? GARBAGE : answerWith(codeFor(defect, answer));
const same = (a: string, b: string) => a.replace(/\s+/g, " ").trim() === b.replace(/\s+/g, " ").trim();

type Row = {
  defect: string;
  answer: Answer;
  proven: boolean;
  right: boolean;
  baselineAccepts: boolean;
  ms: number;
};

/** The peer rule over the same reply: the fenced code runs on the initial state without raising. */
async function baselineAccepts(defect: CheckDefect, reply: string, sandbox: RepairSandbox) {
  const code = extractPythonBlock(reply);
  if (!code.ok) return false;
  const verified = await verifyCheckFunc(code.value, repairInputFor(defect).initialState, { sandbox });
  return verified.ok;
}

export async function main() {
  const sandbox = createSandboxRunner();
  const fake = await startFakeOpenAi();
  const rows: Row[] = [];
  let envRows: EnvRow[] = [];
  try {
    for (const defect of CHECK_DEFECTS) {
      for (const answer of ANSWERS) {
        const reply = replyFor(defect, answer);
        fake.setScript(() => ({ content: reply }));
        const started = performance.now();
        const result = await repairScenarioChecks(repairInputFor(defect), {
          llm: createTestLlm(fake.url).llm,
          model: "bench",
          sandbox,
        });
        const ms = performance.now() - started;
        if (!result.ok) throw new Error(`${defect.kind} / ${answer}: ${result.error.message}`);
        const proposed = result.value.changes[0]?.after ?? "";
        rows.push({
          defect: defect.kind,
          answer,
          proven: result.value.outcome.status === "PROVEN",
          right: proposed !== "" && same(proposed, defectSubject(defect).right),
          baselineAccepts: await baselineAccepts(defect, reply, sandbox),
          ms,
        });
        console.log(
          `${defect.kind.padEnd(44)} ${answer.padEnd(8)} ${result.value.outcome.status.padEnd(7)} ${Math.round(ms)} ms`,
        );
      }
    }
    envRows = await environmentLane(sandbox, fake);
  } finally {
    await fake.close();
    await sandbox.close();
  }
  const proven = rows.filter((r) => r.proven);
  const offered = rows.filter((r) => r.baselineAccepts);
  const bad = rows.filter((r) => r.answer === "wrong" || r.answer === "trivial");
  const times = rows.map((r) => r.ms).sort((a, b) => a - b);
  const precision = proven.filter((r) => r.right).length / Math.max(proven.length, 1);
  const baselinePrecision = offered.filter((r) => r.right).length / Math.max(offered.length, 1);
  const caught = bad.filter((r) => !r.proven).length / bad.length;
  const baselineCaught = bad.filter((r) => !r.baselineAccepts).length / bad.length;
  const metrics = {
    defects: CHECK_DEFECTS.length,
    repairs: rows.length,
    proven: proven.length,
    precision: round(precision, 3),
    baseline_precision: round(baselinePrecision, 3),
    precision_ratio: round(precision / Math.max(baselinePrecision, 1e-9), 2),
    right_fixes_proven: rows.filter((r) => r.answer === "right" && r.proven).length / CHECK_DEFECTS.length,
    wrong_fixes_caught: round(caught, 3),
    baseline_wrong_fixes_caught: round(baselineCaught, 3),
    trivial_fixes_caught: round(
      rows.filter((r) => r.answer === "trivial" && !r.proven).length / CHECK_DEFECTS.length,
      3,
    ),
    garbage_proven: rows.filter((r) => r.answer === "garbage" && r.proven).length,
    ms_per_item_mean: round(times.reduce((a, b) => a + b, 0) / times.length, 0),
    ms_per_item_p95: round(percentile(times, 95), 0),
    ...environmentMetrics(envRows),
  };
  console.log(
    `precision ${metrics.precision} vs baseline ${metrics.baseline_precision} (×${metrics.precision_ratio}); ` +
      `wrong fixes caught ${metrics.wrong_fixes_caught} vs baseline ${metrics.baseline_wrong_fixes_caught}`,
  );
  console.log(
    `environment code: precision ${metrics.env_precision} vs baseline ${metrics.env_baseline_precision}; ` +
      `wrong fixes caught ${metrics.env_wrong_fixes_caught} vs baseline ${metrics.env_baseline_wrong_fixes_caught}`,
  );
  writeResult("repair", metrics, {
    env_right_fixes_proven: "1",
    env_wrong_fixes_caught: "1 (a fix that breaks a sibling or still fails its probe is never offered)",
    right_fixes_proven: "1 (every right fix proves)",
    trivial_fixes_caught: "1 (no trivially-true check is offered as proven)",
    garbage_proven: "0",
  });
}

/** The environment lane's figures, named as the check lane's with an `env_` prefix. */
function environmentMetrics(rows: EnvRow[]) {
  const proven = rows.filter((r) => r.proven);
  const offered = rows.filter((r) => r.baselineAccepts);
  const bad = rows.filter((r) => r.answer === "breaks_sibling" || r.answer === "judge_fails");
  const rights = rows.filter((r) => r.answer === "right");
  const times = rows.map((r) => r.ms).sort((a, b) => a - b);
  return {
    env_defects: rights.length,
    env_repairs: rows.length,
    env_proven: proven.length,
    env_precision: round(proven.filter((r) => r.right).length / Math.max(proven.length, 1), 3),
    env_baseline_precision: round(offered.filter((r) => r.right).length / Math.max(offered.length, 1), 3),
    env_right_fixes_proven: round(rights.filter((r) => r.proven).length / Math.max(rights.length, 1), 3),
    env_wrong_fixes_caught: round(bad.filter((r) => !r.proven).length / Math.max(bad.length, 1), 3),
    env_baseline_wrong_fixes_caught: round(
      bad.filter((r) => !r.baselineAccepts).length / Math.max(bad.length, 1),
      3,
    ),
    env_garbage_proven: rows.filter((r) => r.answer === "garbage" && r.proven).length,
    env_ms_per_item_mean: round(times.reduce((a, b) => a + b, 0) / Math.max(times.length, 1), 0),
    env_ms_per_item_p95: round(percentile(times, 95), 0),
  };
}
