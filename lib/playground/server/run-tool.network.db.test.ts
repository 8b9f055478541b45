// Network isolation, surface "playground": a tool that tries every network route (tests/network-canary.ts)
// runs through runPlaygroundTool on the product's own sandbox runner, unjailed. The call returns
// its normal observation with every route blocked, and the loopback listener, checked after a wait
// for delayed payloads, saw no connection.
import { describe, expect, it } from "vitest";
import { createEnvironment, createTestProject } from "@/prisma/seed/factories";
import { useTestDatabase } from "@/tests/db";
import {
  expectEveryRouteBlocked,
  payloadEnvironment,
  useCanary,
  useUnjailedProductSandbox,
} from "@/tests/network-canary";
import { runPlaygroundTool } from "./run-tool";

const t = useTestDatabase();
const canary = useCanary();
const sandbox = useUnjailedProductSandbox();

describe("playground: network payload (host not jailed)", () => {
  it("returns the tool's observation, every route blocked, and the listener sees no connection", async () => {
    const project = await createTestProject(t.db);
    const env = await createEnvironment(t.db, project.id, { source: payloadEnvironment(canary.port) });
    const base = { environmentId: env.id, versionId: env.currentVersionId!, initialState: { count: 1 } };
    const step = await runPlaygroundTool(
      t.db,
      { ...base, history: [{ name: "reach_out", args: {} }], call: { name: "reach_out", args: {} } },
      sandbox(),
    );
    expect(step).toMatchObject({
      isError: false,
      observation: { success: true },
      state: { count: 1 },
      divergedAt: null,
    });
    expectEveryRouteBlocked((step.observation as { data: unknown }).data);
    // The environment still works in the same episode after the attempts.
    const after = await runPlaygroundTool(
      t.db,
      { ...base, history: [{ name: "reach_out", args: {} }], call: { name: "add", args: { amount: 2 } } },
      sandbox(),
    );
    expect(after).toMatchObject({ isError: false, state: { count: 3 } });
    expect(await canary.settle()).toBe(0);
  }, 60_000);
});
