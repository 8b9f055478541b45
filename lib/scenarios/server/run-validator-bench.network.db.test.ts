// Network isolation, surface "validator bench": check functions that try every network route
// (tests/network-canary.ts) run through runValidatorBench on the product's own sandbox runner,
// unjailed - saved checks, an unsaved edit, and gold calls to a payload tool. Every check reports
// that all routes were blocked, and the loopback listener, checked after a wait for delayed
// payloads, saw no connection.
import { describe, expect, it } from "vitest";
import { createEnvironment, createScenario, createTestProject } from "@/prisma/seed/factories";
import { useTestDatabase } from "@/tests/db";
import {
  payloadCheck,
  payloadEnvironment,
  useCanary,
  useUnjailedProductSandbox,
} from "@/tests/network-canary";
import { runValidatorBench } from "./run-validator-bench";

const t = useTestDatabase();
const canary = useCanary();
const sandbox = useUnjailedProductSandbox();

describe("validator bench: network payload (host not jailed)", () => {
  it("runs the payload checks to a normal result, every route blocked, and the listener sees no connection", async () => {
    const project = await createTestProject(t.db);
    const env = await createEnvironment(t.db, project.id, { source: payloadEnvironment(canary.port) });
    const goldCalls = [
      { name: "reach_out", arguments: {} },
      { name: "add", arguments: { amount: 1 } },
    ];
    const scenario = await createScenario(t.db, env.id, {
      checks: [
        payloadCheck(canary.port),
        "def check_func(final_state):\n    return final_state['count'] == 1\n",
      ],
      initialState: { count: 0 },
      goldCalls,
    });
    const gold = await runValidatorBench(
      t.db,
      { scenarioId: scenario.id, stateSource: "gold", codes: {} },
      sandbox(),
    );
    expect(gold.goldLog).toEqual([
      { name: "reach_out", isError: false },
      { name: "add", isError: false },
    ]);
    expect(gold.finalState).toEqual({ count: 1 });
    // passed = true: the check ran to its end and saw every route refused.
    expect(gold.checks.map((c) => c.result)).toEqual([{ passed: true }, { passed: true }]);
    const [first, second] = await t.db.validator.findMany({
      where: { scenarioId: scenario.id },
      orderBy: { position: "asc" },
    });
    const unsaved = await runValidatorBench(
      t.db,
      {
        scenarioId: scenario.id,
        stateSource: "custom",
        customState: { count: 5 },
        codes: { [second!.id]: payloadCheck(canary.port) },
      },
      sandbox(),
    );
    expect(unsaved.checks.map((c) => [c.validatorId, c.result])).toEqual([
      [first!.id, { passed: true }],
      [second!.id, { passed: true }],
    ]);
    expect(await canary.settle()).toBe(0);
  }, 60_000);
});
