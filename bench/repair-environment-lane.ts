/**
 * The repair bench's environment lane: each seeded tool defect (tests/repair/environment-defects.ts:
 * a tool that forgets to persist a change, one that skips a business rule, a docstring that
 * disagrees with the code) is repaired four times by the scripted model: the right method, a fix
 * that repairs the probe but breaks a sibling scenario, a fix the judge still fails on the re-run
 * probe, and garbage. Real sandbox, real sibling proofs; the judge is scripted (PASS, except FAIL
 * for the third answer). Baseline over the same replies: a patch is offered when the changed code
 * loads ("the code runs").
 */
import { repairEnvironment } from "@/lib/repair/repair-environment";
import type { SandboxRunner } from "@/lib/sandbox";
import type { FakeOpenAi } from "@/tests/fake-openai/server";
import { stageOf } from "@/tests/fake-openai/server";
import { createTestLlm } from "@/tests/fake-openai/test-llm";
import { GARBAGE, answerWith } from "@/tests/repair/defect-corpus";
import {
  CHECKOUT_BREAKS_SIBLING,
  CHECKOUT_RIGHT,
  ENVIRONMENT_DEFECTS,
  type EnvironmentDefect,
  LIBRARY,
  environmentRepairInput,
} from "@/tests/repair/environment-defects";

type EnvAnswer = "right" | "breaks_sibling" | "judge_fails" | "garbage";
const ENV_ANSWERS: EnvAnswer[] = ["right", "breaks_sibling", "judge_fails", "garbage"];

export type EnvRow = {
  answer: EnvAnswer;
  proven: boolean;
  right: boolean;
  baselineAccepts: boolean;
  ms: number;
};

const inputFor = (defect: EnvironmentDefect) => environmentRepairInput(defect.broken, defect.rationale);

const judge = (verdict: string) => ({
  content: JSON.stringify({ analysis: "ok", verdict, error_reason: "" }),
});

export async function environmentLane(sandbox: SandboxRunner, fake: FakeOpenAi): Promise<EnvRow[]> {
  const rows: EnvRow[] = [];
  for (const defect of ENVIRONMENT_DEFECTS) {
    for (const answer of ENV_ANSWERS) {
      const reply =
        answer === "garbage"
          ? GARBAGE
          : answerWith(answer === "breaks_sibling" ? CHECKOUT_BREAKS_SIBLING : CHECKOUT_RIGHT);
      fake.setScript((body) =>
        stageOf(body) === "judge_call"
          ? judge(answer === "judge_fails" ? "FAIL" : "PASS")
          : { content: reply },
      );
      const started = performance.now();
      const result = await repairEnvironment(inputFor(defect), {
        llm: createTestLlm(fake.url).llm,
        model: "bench",
        judgeModel: "bench",
        sandbox,
      });
      const ms = performance.now() - started;
      if (!result.ok) throw new Error(`${defect.kind} / ${answer}: ${result.error.message}`);
      const patched = result.value.replaced.length > 0;
      const loaded = patched
        ? await sandbox.load({
            source: result.value.source,
            className: LIBRARY.meta.env_class_name,
            initialState: LIBRARY.scenarios[0]!.init_config,
          })
        : null;
      if (loaded?.ok) await loaded.value.close();
      const loads = loaded?.ok === true;
      rows.push({
        answer,
        proven: result.value.status === "PROVEN",
        // The right method under a judge that still fails it is not a right proposal to offer.
        right: patched && result.value.source === LIBRARY.source && answer === "right",
        baselineAccepts: loads,
        ms,
      });
      console.log(
        `${defect.kind.padEnd(44)} ${answer.padEnd(14)} ${result.value.status.padEnd(7)} ${Math.round(ms)} ms`,
      );
    }
  }
  return rows;
}
