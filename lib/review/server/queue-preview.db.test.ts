/**
 * The queue's preview says what an item is even when there is nothing to diff against: a fresh
 * environment's description, tool schemas and source; a scenario's task and checks. An edited
 * environment still gets its diff.
 */
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/db";
import { createEnvironment, createScenario, createTestProject } from "@/prisma/seed/factories";
import { sha256 } from "@/lib/environments/hash";
import { getQueuePreview } from "./get-queue-preview";

const t = useTestDatabase();

const TOOL = {
  type: "function",
  function: {
    name: "increment",
    description: "Add one to the counter and return the new value.",
    parameters: {
      type: "object",
      properties: { by: { type: "integer", description: "how much to add" } },
      required: ["by"],
    },
  },
};
const SOURCE = "class Counter:\n    def increment(self, by: int):\n        return by\n";

describe("queue preview", () => {
  it("shows a fresh environment's description, tools and code, with no diff", async () => {
    const project = await createTestProject(t.db);
    const env = await createEnvironment(t.db, project.id, {
      status: "IN_REVIEW",
      description: "A counter that only goes up.",
      source: SOURCE,
      tools: [TOOL],
    });
    const preview = await getQueuePreview(t.db, project.id, { kind: "environment", id: env.id });
    expect(preview.diff).toBeNull();
    expect(preview.description).toBe("A counter that only goes up.");
    expect(preview.tools).toHaveLength(1);
    expect(preview.tools[0]?.function).toMatchObject({
      name: "increment",
      description: "Add one to the counter and return the new value.",
      parameters: {
        properties: { by: { type: "integer", description: "how much to add" } },
        required: ["by"],
      },
    });
    expect(preview.code).toEqual({
      label: "Code of v1 (Counter); no earlier version to compare with",
      source: SOURCE,
    });
  });

  it("diffs an edited environment against its parent version", async () => {
    const project = await createTestProject(t.db);
    const env = await createEnvironment(t.db, project.id, { status: "IN_REVIEW", source: SOURCE });
    const edited = `${SOURCE}    # edited\n`;
    const v2 = await t.db.environmentVersion.create({
      data: {
        environmentId: env.id,
        version: 2,
        className: "Counter",
        source: edited,
        sourceHash: sha256(edited),
        producedBy: "test",
        parentVersionId: env.currentVersionId,
      },
    });
    await t.db.environment.update({ where: { id: env.id }, data: { currentVersionId: v2.id } });
    const preview = await getQueuePreview(t.db, project.id, { kind: "environment", id: env.id });
    expect(preview.diff).toEqual({ label: "v1 → v2", original: SOURCE, modified: edited });
    expect(preview.description).toBeNull();
  });

  it("shows a scenario's task and its checks in checklist order", async () => {
    const project = await createTestProject(t.db);
    const env = await createEnvironment(t.db, project.id);
    const scenario = await createScenario(t.db, env.id, {
      checks: ["def check_func(s):\n    return True\n", "def check_func(s):\n    return False\n"],
    });
    const preview = await getQueuePreview(t.db, project.id, { kind: "scenario", id: scenario.id });
    expect(preview.description).toBe(scenario.task);
    expect(preview.code?.label).toBe("Checks (2)");
    expect(preview.code?.source).toBe(
      "# check 1: check 1\ndef check_func(s):\n    return True\n\n\n# check 2: check 2\ndef check_func(s):\n    return False\n",
    );
  });

  it("refuses an item of another project", async () => {
    const mine = await createTestProject(t.db, "mine");
    const theirs = await createTestProject(t.db, "theirs");
    const env = await createEnvironment(t.db, theirs.id);
    await expect(getQueuePreview(t.db, mine.id, { kind: "environment", id: env.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});
