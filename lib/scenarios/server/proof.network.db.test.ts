// Network isolation, surface "validator proof": a PROOF run (executeProofRun, the job's domain function, on
// the product's own sandbox runner, unjailed) proves a scenario whose check carries the network
// payload (tests/network-canary.ts) and whose gold solution calls the payload tool. The proof runs
// the check on the no-op state, inside the gold episode and again on the recorded states; it ends
// VERIFIED (so the check ran to its end every time, seeing every route blocked), and the loopback
// listener, checked after a wait for delayed payloads, saw no connection.
import { describe, expect, it } from "vitest";
import { createRunLlmFactory } from "@/lib/runs/server/run-llm";
import { createEnvironment, createScenario, createTestProject } from "@/prisma/seed/factories";
import { useTestDatabase } from "@/tests/db";
import {
  payloadCheck,
  payloadEnvironment,
  useCanary,
  useUnjailedProductSandbox,
} from "@/tests/network-canary";
import { enqueueProofRun, executeProofRun } from "./proof-run";

const t = useTestDatabase();
const canary = useCanary();
const sandbox = useUnjailedProductSandbox();

describe("validator proof: network payload (host not jailed)", () => {
  it("proves the scenario VERIFIED with every route blocked, and the listener sees no connection", async () => {
    const project = await createTestProject(t.db);
    const env = await createEnvironment(t.db, project.id, { source: payloadEnvironment(canary.port) });
    const scenario = await createScenario(t.db, env.id, {
      checks: [payloadCheck(canary.port, "final_state['count'] == initial_state['count'] + 1")],
      initialState: { count: 0 },
      goldCalls: [
        { name: "reach_out", arguments: {} },
        { name: "add", arguments: { amount: 1 } },
      ],
    });
    const run = await enqueueProofRun(t.db, () => Promise.resolve(null), {
      projectId: project.id,
      scenarioIds: [scenario.id],
    });
    await executeProofRun(t.db, run.id, {
      sandbox: sandbox(),
      llmFor: createRunLlmFactory(t.db, { baseUrl: null }),
    });
    expect(await t.db.pipelineRun.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({
      status: "SUCCEEDED",
    });
    const proven = await t.db.scenario.findUniqueOrThrow({
      where: { id: scenario.id },
      include: { proofs: true },
    });
    expect(proven).toMatchObject({ status: "VERIFIED", proofStatus: "VERIFIED", proofReasons: [] });
    expect(proven.proofs).toHaveLength(1);
    expect(proven.proofs[0]!.gold).toMatchObject({ finalState: { count: 1 }, results: [{ passed: true }] });
    expect(await canary.settle()).toBe(0);
  }, 60_000);
});
