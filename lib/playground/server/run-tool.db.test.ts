import { afterAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/db";
import { createEnvironment, createTestProject } from "@/prisma/seed/factories";
import { createSandboxRunner } from "@/lib/sandbox";
import { runPlaygroundTool } from "./run-tool";

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

describe("playground call (real sandbox, replayed history)", () => {
  it("replays earlier calls, then returns the new observation, its diff and the state", async () => {
    const project = await createTestProject(t.db);
    const env = await createEnvironment(t.db, project.id, { source: SOURCE });
    const base = { environmentId: env.id, versionId: env.currentVersionId!, initialState: { count: 10 } };
    const first = await runPlaygroundTool(
      t.db,
      { ...base, history: [], call: { name: "add", args: { amount: 2 } } },
      sandbox,
    );
    expect(first).toMatchObject({
      observation: { success: true, data: 12 },
      isError: false,
      state: { count: 12 },
      divergedAt: null,
    });
    expect(first.diff.changed).toEqual([{ path: ["count"], old: 10, new: 12 }]);
    const second = await runPlaygroundTool(
      t.db,
      {
        ...base,
        history: [{ ...first.call, observation: first.observation }],
        call: { name: "add", args: { amount: 5 } },
      },
      sandbox,
    );
    expect(second.state).toEqual({ count: 17 });
    // A recorded observation that the replay does not reproduce is reported, not hidden.
    const diverged = await runPlaygroundTool(
      t.db,
      {
        ...base,
        history: [{ name: "add", args: { amount: 2 }, observation: { success: true, data: 99 } }],
        call: { name: "add", args: { amount: 1 } },
      },
      sandbox,
    );
    expect(diverged.divergedAt).toBe(0);
    const unknown = await runPlaygroundTool(
      t.db,
      { ...base, history: [], call: { name: "nope", args: {} } },
      sandbox,
    );
    expect(unknown.isError).toBe(true);
  }, 120_000);
});
