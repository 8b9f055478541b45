// Environment repair: the environment's code in the prompt, only the condemned methods replaced,
// the failing probes re-run and re-judged, and the sibling scenarios re-proven on the changed code.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAi, promptText, stageOf, startFakeOpenAi } from "@/tests/fake-openai/server";
import { createTestLlm } from "@/tests/fake-openai/test-llm";
import { answerWith } from "@/tests/repair/defect-corpus";
import {
  CHECKOUT_BREAKS_SIBLING,
  CHECKOUT_RIGHT,
  ENVIRONMENT_DEFECTS,
  environmentRepairInput,
  LIBRARY,
  LIBRARY_SIBLINGS,
} from "@/tests/repair/environment-defects";
import { createSandboxRunner } from "../sandbox";
import { type EnvironmentRepairInput, repairEnvironment } from "./repair-environment";

const sandbox = createSandboxRunner();
let fake: FakeOpenAi;
beforeAll(async () => void (fake = await startFakeOpenAi()));
afterAll(async () => {
  await fake.close();
  await sandbox.close();
});

const judge = (verdict: string) => ({
  content: JSON.stringify({ analysis: "ok", verdict, error_reason: "" }),
});

const inputFor = environmentRepairInput;

const repair = (input: EnvironmentRepairInput) =>
  repairEnvironment(input, { llm: createTestLlm(fake.url).llm, model: "m", judgeModel: "j", sandbox });

describe("repairEnvironment", () => {
  it.each(ENVIRONMENT_DEFECTS.map((d) => [d.kind, d] as const))(
    "%s: the right method proves, with the environment's code in the prompt",
    async (_kind, defect) => {
      fake.setScript((body) =>
        stageOf(body) === "judge_call" ? judge("PASS") : { content: answerWith(CHECKOUT_RIGHT) },
      );
      const result = await repair(inputFor(defect.broken, defect.rationale));
      if (!result.ok) throw new Error(result.error.message);
      const ask = fake.chatRequests().find((r) => stageOf(r.body as never) === "repair_environment");
      expect(promptText(ask!.body as never)).toContain(defect.broken.trimEnd().slice(-200));
      expect(result.value).toMatchObject({
        status: "PROVEN",
        replaced: ["checkout_copy"],
        source: LIBRARY.source,
      });
      // The evidence after: the probe re-run and re-judged, every sibling re-proven, the new tools.
      expect(result.value.after?.probes).toMatchObject([{ toolName: "checkout_copy", verdict: "PASS" }]);
      expect(result.value.after?.siblings.map((s) => s.status)).toEqual(
        LIBRARY_SIBLINGS.map(() => "VERIFIED"),
      );
      expect(result.value.tools.map((t) => t.function.name)).toContain("checkout_copy");
    },
  );

  it("fails a fix that breaks a sibling scenario, naming it", async () => {
    const [defect] = ENVIRONMENT_DEFECTS;
    fake.setScript((body) =>
      stageOf(body) === "judge_call" ? judge("PASS") : { content: answerWith(CHECKOUT_BREAKS_SIBLING) },
    );
    const result = await repair(inputFor(defect!.broken, defect!.rationale));
    expect(result.ok && result.value.status).toBe("FAILED");
    expect(result.ok && result.value.reasons.join()).toContain("breaks scenario library-lending-01");
  });

  it("fails a fix the judge still fails on the re-run probe", async () => {
    const [defect] = ENVIRONMENT_DEFECTS;
    fake.setScript((body) =>
      stageOf(body) === "judge_call" ? judge("FAIL") : { content: answerWith(CHECKOUT_RIGHT) },
    );
    const result = await repair(inputFor(defect!.broken, defect!.rationale));
    expect(result.ok && result.value.reasons[0]).toContain("the probe checkout_copy still fails");
  });

  it("refuses, with the reason, a patch that changes a method it was not asked about", async () => {
    const [defect] = ENVIRONMENT_DEFECTS;
    let n = 0;
    fake.setScript((body) => {
      if (stageOf(body) === "judge_call") return judge("PASS");
      return {
        content: answerWith(
          n++ === 0 ? "def pay_fines(self, member_id, amount):\n    return {}\n" : CHECKOUT_RIGHT,
        ),
      };
    });
    const result = await repair(inputFor(defect!.broken, defect!.rationale));
    expect(result.ok && result.value.status).toBe("PROVEN");
    const reask = fake
      .chatRequests()
      .map((r) => JSON.stringify(r.body))
      .find((b) => b.includes("[stage:repair_environment]") && b.includes("could not be used"));
    expect(reask).toContain("you redefined `pay_fines`, which you were not asked to change");
  });
});
