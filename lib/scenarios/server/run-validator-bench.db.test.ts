import { afterAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/db";
import { createProjectWithScenarios, createTrajectory } from "@/prisma/seed/factories";
import { createSandboxRunner } from "@/lib/sandbox";
import { runValidatorBench } from "./run-validator-bench";

const t = useTestDatabase();
const sandbox = createSandboxRunner();
afterAll(() => sandbox.close());

const SOURCE = `class Counter:
    def __init__(self, init_config=None):
        self.count = 0

    def add(self, amount: int) -> dict:
        """Add to the counter.

        Args:
            amount: how much to add
        """
        self.count += amount
        return {"success": True, "data": self.count}
`;
const CHECKS = [
  "def check_func(final_state):\n    return final_state.get('count') == 3\n",
  "def check_func(final_state):\n    return final_state['count'] > initial_state['count']  # initial_state is a global of the check\n",
];

describe("validator test bench (real sandbox)", () => {
  it("runs checks on the initial, gold (replayed), trajectory and custom states, and tries unsaved code", async () => {
    const { scenarios } = await createProjectWithScenarios(t.db, 1, {
      environment: { source: SOURCE },
      scenario: {
        checks: CHECKS,
        initialState: { count: 0 },
        goldCalls: [
          { name: "add", arguments: { amount: 1 } },
          { name: "add", arguments: { amount: 2 } },
        ],
      },
    });
    const scenario = scenarios[0]!;
    const trajectory = await createTrajectory(t.db, scenario.id, { finalState: { count: 2 } });
    const passed = (run: Awaited<ReturnType<typeof runValidatorBench>>) =>
      run.checks.map((c) => ("passed" in c.result ? c.result.passed : c.result.error));

    expect(
      passed(
        await runValidatorBench(
          t.db,
          { scenarioId: scenario.id, stateSource: "initial", codes: {} },
          sandbox,
        ),
      ),
    ).toEqual([false, false]);
    const gold = await runValidatorBench(
      t.db,
      { scenarioId: scenario.id, stateSource: "gold", codes: {} },
      sandbox,
    );
    expect(gold.finalState).toEqual({ count: 3 });
    expect(gold.goldLog).toEqual([
      { name: "add", isError: false },
      { name: "add", isError: false },
    ]);
    expect(passed(gold)).toEqual([true, true]);
    expect(
      passed(
        await runValidatorBench(
          t.db,
          { scenarioId: scenario.id, stateSource: "trajectory", trajectoryId: trajectory.id, codes: {} },
          sandbox,
        ),
      ),
    ).toEqual([false, true]);
    expect(
      passed(
        await runValidatorBench(
          t.db,
          { scenarioId: scenario.id, stateSource: "custom", customState: { count: 3 }, codes: {} },
          sandbox,
        ),
      ),
    ).toEqual([true, true]);
    const validators = await t.db.validator.findMany({
      where: { scenarioId: scenario.id },
      orderBy: { position: "asc" },
    });
    const edited = await runValidatorBench(
      t.db,
      {
        scenarioId: scenario.id,
        stateSource: "trajectory",
        trajectoryId: trajectory.id,
        codes: {
          [validators[0]!.id]: "def check_func(final_state):\n    return final_state['count'] >= 2\n",
        },
      },
      sandbox,
    );
    expect(passed(edited)).toEqual([true, true]);
    const broken = await runValidatorBench(
      t.db,
      {
        scenarioId: scenario.id,
        stateSource: "initial",
        codes: { [validators[0]!.id]: "def check_func(final_state):\n    return final_state['missing']\n" },
      },
      sandbox,
    );
    expect(typeof passed(broken)[0]).toBe("string");
  }, 120_000);
});
