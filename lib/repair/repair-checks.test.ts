// Check repair: the evidence, the splice, re-asks with the refusal, and the proof before anyone sees it.
import { describe, expect, it } from "vitest";
import { lastUserText, systemText } from "@/tests/fake-openai/server";
import { createTestLlm } from "@/tests/fake-openai/test-llm";
import { answerInTurn, latestAsks, useRepairHarness } from "@/tests/repair/repair-harness";
import { CHECK_DEFECTS, GARBAGE, TRIVIAL_FIX, answerWith, defectSubject } from "@/tests/repair/defect-corpus";
import { repairInputFor } from "@/tests/repair/repair-input";
import { proveValidators } from "../scenarios/proof";
import { repairScenarioChecks } from "./repair-checks";

const h = useRepairHarness();
const { sandbox } = h;

const defect = CHECK_DEFECTS[0]!;
const { right } = defectSubject(defect);
const repair = (maxReasks?: number) =>
  repairScenarioChecks(repairInputFor(defect), {
    llm: createTestLlm(h.fake.url).llm,
    model: "m",
    sandbox,
    maxReasks,
  });

describe("repairScenarioChecks", () => {
  it("asks with the exact evidence and proves the right fix", async () => {
    h.fake.setScript(() => ({ content: answerWith(right, "It read `state`, which copies do not have.") }));
    const result = await repair();
    if (!result.ok) throw new Error(result.error.message);
    const prompt = lastUserText(h.fake.chatRequests()[0]!.body as never);
    expect(systemText(h.fake.chatRequests()[0]!.body as never)).toContain("[stage:repair_check]");
    expect(prompt).toContain(defect.broken.trimEnd());
    expect(prompt).toContain("FAILS_ON_GOLD");
    expect(prompt).toContain("on the gold final state the check returned False");
    expect(prompt).toContain('return_copy({"copy_id":"C004-1","condition":"damaged"})');
    expect(prompt).toContain('"in_repair"'); // the state diff and the gold final state
    expect(result.value.outcome.status).toBe("PROVEN");
    expect(result.value.outcome.before?.status).toBe("FAILED");
    expect(result.value.outcome.after?.status).toBe("VERIFIED");
    expect(result.value.changes).toEqual([
      expect.objectContaining({ position: 1, before: defect.broken, after: right, replaced: ["check_func"] }),
    ]);
    expect(result.value.summary).toBe("check 2: It read `state`, which copies do not have.");
  });

  it("refuses a trivially-true fix: it fails the no-op part and is kept as FAILED", async () => {
    h.fake.setScript(() => ({ content: answerWith(TRIVIAL_FIX) }));
    const result = await repair();
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.outcome.status).toBe("FAILED");
    expect(result.value.outcome.after?.reasons.map((r) => r.code)).toContain("PASSES_WITHOUT_WORK");
    expect(result.value.changes[0]?.after).toBe(TRIVIAL_FIX);
  });

  it("re-asks garbage and a patch defining another function, with the reason, then takes a good one", async () => {
    const answers = [
      GARBAGE,
      answerWith("def check_copy(final_state):\n    return False\n"),
      answerWith(right),
    ];
    answerInTurn(h.fake, answers);
    const result = await repair();
    if (!result.ok) throw new Error(result.error.message);
    const asks = latestAsks(h.fake, 3);
    expect(asks[1]).toContain("no ```python fenced code block");
    expect(asks[2]).toContain("`check_copy` is not defined in the item");
    expect(result.value.outcome.status).toBe("PROVEN");
  });

  it("keeps a reply that never becomes usable as a FAILED proposal after the re-ask limit", async () => {
    const before = h.fake.chatRequests().length;
    h.fake.setScript(() => ({ content: GARBAGE }));
    const result = await repair(1);
    if (!result.ok) throw new Error(result.error.message);
    expect(h.fake.chatRequests().length - before).toBe(2);
    expect(result.value.outcome).toMatchObject({ status: "FAILED", after: null });
    expect(result.value.outcome.reasons[0]).toContain("did not parse after 2 tries");
  });

  it("refuses a scenario whose proof passes, before any LLM request", async () => {
    const before = h.fake.chatRequests().length;
    const result = await repairScenarioChecks(repairInputFor(defect, right), {
      llm: createTestLlm(h.fake.url).llm,
      model: "m",
      sandbox,
    });
    expect(!result.ok && result.error.code).toBe("NOT_FAILING");
    expect(h.fake.chatRequests().length).toBe(before);
  });
});

describe("the defect corpus", () => {
  it.each(CHECK_DEFECTS.map((d) => [d.kind, d] as const))(
    "%s: fails the proof, and its right fix proves",
    async (_k, d) => {
      const broken = await proveValidators(repairInputFor(d), { sandbox });
      const fixed = await proveValidators(repairInputFor(d, defectSubject(d).right), { sandbox });
      expect(broken.ok && broken.value.status).toBe("FAILED");
      expect(fixed.ok && fixed.value.status).toBe("VERIFIED");
    },
  );

  it("has at least 12 defects of distinct kinds", () => {
    expect(new Set(CHECK_DEFECTS.map((d) => d.kind)).size).toBe(CHECK_DEFECTS.length);
    expect(CHECK_DEFECTS.length).toBeGreaterThanOrEqual(12);
  });
});
