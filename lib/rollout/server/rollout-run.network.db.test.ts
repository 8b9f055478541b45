// Network isolation, surface "rollout": a ROLLOUT run (executeRolloutRun, the job's domain function, on the
// product's own sandbox runner, unjailed) where a scripted agent (tests/fake-openai) calls a tool
// carrying the network payload (tests/network-canary.ts) and the scenario's check carries it too.
// The stored trajectory is COMPLETED with reward 1 (the check ran to its end and saw every route
// blocked), its payload step shows every route blocked, and the loopback listener, checked after
// a wait for delayed payloads, saw no connection.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRunLlmFactory } from "@/lib/runs/server/run-llm";
import { createEnvironment, createScenario, createTestProject } from "@/prisma/seed/factories";
import { useTestDatabase } from "@/tests/db";
import { agentReply } from "@/tests/fake-openai/rollout-script";
import { type FakeOpenAi, startFakeOpenAi } from "@/tests/fake-openai/server";
import {
  expectEveryRouteBlocked,
  payloadCheck,
  payloadEnvironment,
  useCanary,
  useUnjailedProductSandbox,
} from "@/tests/network-canary";
import { enqueueRolloutRun, executeRolloutRun } from "./rollout-run";

const t = useTestDatabase();
const canary = useCanary();
const sandbox = useUnjailedProductSandbox();
let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(() => fake.close());

describe("rollout run: network payload (host not jailed)", () => {
  it("stores a reward-1 trajectory with every route blocked, and the listener sees no connection", async () => {
    const project = await createTestProject(t.db);
    const source = payloadEnvironment(canary.port);
    const tools = await sandbox().extractTools(source, "Counter");
    if (!tools.ok) throw new Error(tools.error.message);
    const env = await createEnvironment(t.db, project.id, { source, tools: tools.value });
    const scenario = await createScenario(t.db, env.id, {
      checks: [payloadCheck(canary.port, "final_state['count'] == initial_state['count'] + 1")],
      initialState: { count: 0 },
    });
    fake.setScript((body) =>
      agentReply(body, [
        { name: "reach_out", arguments: {} },
        { name: "add", arguments: { amount: 1 } },
      ]),
    );
    const run = await enqueueRolloutRun(t.db, () => Promise.resolve(null), {
      projectId: project.id,
      scenarioIds: [scenario.id],
      config: { models: ["m-agent"], k: 1, concurrency: 1 },
    });
    await executeRolloutRun(t.db, run.id, {
      sandbox: sandbox(),
      llmFor: createRunLlmFactory(t.db, { baseUrl: fake.url, apiKey: "test" }),
    });

    expect(await t.db.pipelineRun.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({
      status: "SUCCEEDED",
    });
    const trajectory = await t.db.trajectory.findFirstOrThrow({ where: { runId: run.id } });
    expect(trajectory).toMatchObject({
      status: "COMPLETED",
      reward: 1,
      finalState: { count: 1 },
      checkResults: [{ passed: true }],
    });
    const [reach, add] = trajectory.steps as {
      name: string;
      isError: boolean;
      observation: { success: boolean; data: unknown };
    }[];
    expect(reach).toMatchObject({ name: "reach_out", isError: false, observation: { success: true } });
    expectEveryRouteBlocked(reach!.observation.data);
    expect(add).toMatchObject({ name: "add", isError: false, observation: { success: true, data: 1 } });
    expect(await canary.settle()).toBe(0);
  }, 60_000);
});
