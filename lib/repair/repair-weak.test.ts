// Weak-validator repair: a verified checklist that accepts a near-miss gets one check strengthened,
// proven only when the proof still holds and no near-miss earns full reward any more.
import { describe, expect, it } from "vitest";
import { lastUserText, systemText } from "@/tests/fake-openai/server";
import { createTestLlm } from "@/tests/fake-openai/test-llm";
import { answerInTurn, latestAsks, useRepairHarness } from "@/tests/repair/repair-harness";
import { GARBAGE, TRIVIAL_FIX } from "@/tests/repair/defect-corpus";
import { type CheckRepairInput, repairScenario, repairWeakValidator } from "./repair-checks";
import {
  BOTH_CHANGES as BOTH,
  COUNT_IS_2,
  TAGGED_DONE,
  TWO_CHANGE_COUNTER as SOURCE,
} from "@/tests/two-change-counter";

const h = useRepairHarness();
const { sandbox } = h;

const fn = (body: string) => `def check_func(final_state):\n    ${body}\n`;
// Looser, not stronger: still accepts the near-miss that skips the tag.
const WRONG = fn("return final_state['count'] >= 2");

function input(codes: string[]): CheckRepairInput {
  return {
    source: SOURCE,
    className: "Counter",
    initialState: { count: 0, tags: [] },
    task: "Add 2 to the counter and tag it 'done'.",
    gold: {
      source: "scenario",
      calls: [
        { name: "get_count", arguments: {} },
        { name: "add", arguments: { amount: 2 } },
        { name: "tag", arguments: { label: "done" } },
      ],
    },
    checks: codes.map((code, position) => ({
      position,
      item: position === 0 ? "Is the count 2?" : "Is the counter tagged 'done'?",
      code,
      validatorId: `validator-${position}`,
      validatorVersionId: `version-${position}`,
    })),
  };
}

const answer = (code: string, check: number | null = 1) =>
  `# Diagnosis\nThe check never looks at the tag.\n${check === null ? "" : `# Check ${check}\n`}# Fix\n\`\`\`python\n${code}\`\`\`\n`;
const deps = (maxReasks?: number) => ({ llm: createTestLlm(h.fake.url).llm, model: "m", sandbox, maxReasks });

describe("repairWeakValidator", () => {
  it("asks with the near-misses that passed and their final states, and proves a check that rejects them", async () => {
    h.fake.setScript(() => ({ content: answer(BOTH) }));
    const result = await repairScenario(input([COUNT_IS_2]), deps());
    if (!result.ok) throw new Error(result.error.message);
    const body = h.fake.chatRequests().at(-1)!.body as never;
    expect(systemText(body)).toContain("[stage:repair_weak_check]");
    const prompt = lastUserText(body);
    expect(prompt).toContain("skips call 3 (tag)");
    expect(prompt).toContain(COUNT_IS_2.trimEnd());
    expect(result.value.evidence.weak?.map((w) => [w.description, w.finalState])).toEqual([
      ["skips call 3 (tag)", { count: 2, tags: [] }],
      ['call 3 (tag) with label="done (altered)" instead of "done"', { count: 2, tags: ["done (altered)"] }],
    ]);
    expect(result.value.outcome.status).toBe("PROVEN");
    expect(result.value.outcome.before?.status).toBe("VERIFIED");
    expect(result.value.outcome.after?.status).toBe("VERIFIED");
    expect(result.value.changes).toEqual([
      expect.objectContaining({ position: 0, before: COUNT_IS_2, after: BOTH, replaced: ["check_func"] }),
    ]);
    expect(result.value.summary).toBe("check 1: The check never looks at the tag.");
  });

  it("fails a fix that proves but still accepts a near-miss, naming it", async () => {
    h.fake.setScript(() => ({ content: answer(WRONG) }));
    const result = await repairWeakValidator(input([COUNT_IS_2]), deps());
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.outcome.after?.status).toBe("VERIFIED");
    expect(result.value.outcome.status).toBe("FAILED");
    expect(result.value.outcome.reasons).toContain(
      'the near-miss "skips call 3 (tag)" still earns full reward',
    );
  });

  it("fails a trivially-true fix on the no-op part", async () => {
    h.fake.setScript(() => ({ content: answer(TRIVIAL_FIX) }));
    const result = await repairWeakValidator(input([COUNT_IS_2]), deps());
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.outcome.status).toBe("FAILED");
    expect(result.value.outcome.after?.reasons.map((r) => r.code)).toContain("PASSES_WITHOUT_WORK");
  });

  it("re-asks an answer that names no check or a check that does not exist, then keeps garbage as FAILED", async () => {
    // Two checks, both blind to the tag's exact value: the near-miss with an altered label passes.
    const weakPair = [COUNT_IS_2, fn("return len(final_state['tags']) == 1")];
    const answers = [answer(BOTH, null), answer(BOTH, 7), answer(BOTH, 2)];
    answerInTurn(h.fake, answers);
    const result = await repairWeakValidator(input(weakPair), deps());
    if (!result.ok) throw new Error(result.error.message);
    const asks = latestAsks(h.fake, 3);
    expect(asks[1]).toContain("it does not say which check it changes");
    expect(asks[2]).toContain("it names check 7, but the checks are 1, 2");
    expect(result.value.changes[0]).toMatchObject({ position: 1, after: BOTH });
    expect(result.value.outcome.status).toBe("PROVEN");

    h.fake.setScript(() => ({ content: GARBAGE }));
    const garbage = await repairWeakValidator(input([COUNT_IS_2]), deps(0));
    if (!garbage.ok) throw new Error(garbage.error.message);
    expect(garbage.value.outcome).toMatchObject({ status: "FAILED", after: null });
    expect(garbage.value.changes).toEqual([]);
  });

  it("refuses a strong checklist and a failed proof before any LLM request", async () => {
    const before = h.fake.chatRequests().length;
    const strong = await repairWeakValidator(input([COUNT_IS_2, TAGGED_DONE]), deps());
    expect(!strong.ok && strong.error.code).toBe("NOT_FAILING");
    const failing = await repairWeakValidator(input([fn("return final_state['count'] == 3")]), deps());
    expect(!failing.ok && failing.error.code).toBe("NOT_WEAK");
    expect(h.fake.chatRequests().length).toBe(before);
  });
});
