import { afterAll, describe, expect, it } from "vitest";
import { loadSamples } from "@/prisma/seed/load-samples";
import { createSandboxRunner } from "../sandbox";
import { proveValidators, type ProofInput } from "./proof";

const runner = createSandboxRunner();
afterAll(() => runner.close());

const sample = loadSamples().find((s) => s.slug === "library-lending")!;
const scenario = sample.scenarios[0]!;

function input(overrides: Partial<ProofInput> = {}): ProofInput {
  return {
    source: sample.source,
    className: sample.meta.env_class_name,
    initialState: scenario.init_config,
    checks: scenario.checklist_with_func.map((c, position) => ({
      position,
      item: c.check_item,
      code: c.check_func,
    })),
    gold: { source: "scenario", calls: scenario.gold_calls ?? [] },
    ...overrides,
  };
}

const ALWAYS_TRUE = "def check_func(final_state):\n    return True\n";
const UNSATISFIABLE =
  "def check_func(final_state):\n    return final_state.get('members', {}).get('M001', {}).get('fines_due') == -999\n";

describe("validator proof", () => {
  it("verifies a sample scenario whose checks are right", async () => {
    const result = await proveValidators(input(), { sandbox: runner });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.reasons).toEqual([]);
    expect(result.value.status).toBe("VERIFIED");
    expect(result.value.sensitivity.checks.every((c) => c.flips)).toBe(true);
    expect(result.value.gold.finalState).not.toBeNull();
    // Then its strength: every near-miss replayed in an episode of its own and judged.
    const nearMiss = result.value.nearMiss;
    expect(nearMiss.status).toBe("MEASURED");
    expect(nearMiss.results.length).toBeGreaterThan(5);
    expect(nearMiss.results.length).toBeLessThanOrEqual(nearMiss.cap);
    expect(nearMiss.results.filter((r) => r.outcome === "CRASHED")).toEqual([]);
    expect(nearMiss.stateChangingCalls).toEqual(
      (scenario.gold_calls ?? []).flatMap((c, i) =>
        /^(return_copy|pay_fines|renew_loan|checkout_copy)$/.test(c.name) ? [i] : [],
      ),
    );

    // A proof told to skip them (the first start's sample proofs) still verifies, strength NOT_RUN.
    const skipped = await proveValidators(input({ nearMisses: false }), { sandbox: runner });
    if (!skipped.ok) throw new Error(skipped.error.message);
    expect(skipped.value.status).toBe("VERIFIED");
    expect(skipped.value.nearMiss).toMatchObject({ status: "NOT_RUN", results: [] });
  });

  it("catches a planted check that passes without work and one nobody can satisfy", async () => {
    const good = input().checks;
    const checks = [
      ...good,
      { position: good.length, item: "Has nothing happened?", code: ALWAYS_TRUE },
      { position: good.length + 1, item: "Has the fine gone negative?", code: UNSATISFIABLE },
    ];
    const result = await proveValidators(input({ checks }), { sandbox: runner });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.status).toBe("FAILED");
    expect(result.value.nearMiss).toMatchObject({ status: "NOT_RUN", results: [] });
    const byCode = (code: string) =>
      result.value.reasons.filter((r) => r.code === code).map((r) => r.position);
    expect(byCode("PASSES_WITHOUT_WORK")).toEqual([good.length]);
    expect(byCode("FAILS_ON_GOLD")).toEqual([good.length + 1]);
    expect(byCode("NOT_SENSITIVE")).toEqual([good.length, good.length + 1]);
  });

  it("flags a missing gold solution, a crashing check and an empty checklist", async () => {
    const noGold = await proveValidators(input({ gold: null }), { sandbox: runner });
    if (!noGold.ok) throw new Error(noGold.error.message);
    expect(noGold.value.reasons.map((r) => r.code)).toEqual(["NO_GOLD"]);
    expect(noGold.value.nearMiss).toMatchObject({ status: "NONE_DERIVABLE", results: [] });

    const crashing = await proveValidators(
      input({
        checks: [
          {
            position: 0,
            item: "Has it crashed?",
            code: "def check_func(final_state):\n    return final_state['nope']\n",
          },
        ],
      }),
      { sandbox: runner },
    );
    if (!crashing.ok) throw new Error(crashing.error.message);
    expect(crashing.value.reasons.map((r) => r.code)).toEqual(
      expect.arrayContaining(["CHECK_ERROR", "NOT_SENSITIVE"]),
    );

    const empty = await proveValidators(input({ checks: [] }), { sandbox: runner });
    expect(empty.ok && empty.value.reasons[0]?.code).toBe("NO_CHECKS");
  });

  it("reports a gold sequence that the environment cannot finish, and an initial state that does not load", async () => {
    const broken = await proveValidators(
      input({
        gold: { source: "llm", calls: [{ name: "checkout_copy", arguments: { member_id: "M001" } }] },
      }),
      { sandbox: runner },
    );
    if (!broken.ok) throw new Error(broken.error.message);
    expect(broken.value.status).toBe("FAILED");
    expect(broken.value.gold.refusedCalls).toEqual([0]);
    expect(broken.value.reasons.some((r) => r.code === "FAILS_ON_GOLD")).toBe(true);

    const bad = await proveValidators(input({ source: "class Nope:\n    pass\n" }), { sandbox: runner });
    if (!bad.ok) throw new Error(bad.error.message);
    expect(bad.value.reasons[0]?.code).toBe("SANDBOX");
  });
});
