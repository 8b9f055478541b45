import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/db";
import {
  createEnvironment,
  createScenario,
  createTestProject,
  createUser,
  proveScenario,
} from "@/prisma/seed/factories";
import { ok } from "@/lib/core/result";
import type { Analysis } from "@/lib/sandbox";
import { saveEnvironmentVersion, type AnalyzeDeps } from "./save-environment-version";
import { saveValidatorVersion } from "@/lib/scenarios/server/save-validator-version";

const t = useTestDatabase();

/** Analysis stand-in (the sandbox has its own tests): flags "SYNTAX" lines, finds one tool. */
const fakeSandbox: AnalyzeDeps = {
  analyze: ({ source }) => {
    const line = source.split("\n").findIndex((l) => l.includes("SYNTAX"));
    const analysis: Analysis = {
      syntaxErrors: line >= 0 ? [{ message: "invalid syntax", line: line + 1, column: 5 }] : [],
      classFound: source.includes("class Counter"),
      classes: ["Counter"],
      publicMethods: ["get_count"],
      forbiddenImports: [],
      hasAsync: false,
      tools: [
        {
          type: "function",
          function: {
            name: "get_count",
            description: "",
            parameters: { type: "object", properties: {}, required: [] },
          },
        },
      ],
    };
    return Promise.resolve(ok(analysis));
  },
};

async function setup() {
  const project = await createTestProject(t.db);
  const env = await createEnvironment(t.db, project.id);
  const user = await createUser(t.db, { role: "REVIEWER" });
  const actor = { id: user.id, email: user.email, name: user.name, role: user.role };
  const head = await t.db.environmentVersion.findUniqueOrThrow({ where: { id: env.currentVersionId! } });
  return { project, env, actor, head };
}

describe("saving environment code (optimistic locking)", () => {
  it("creates a new immutable version with author, message, parent, tools and an audit row", async () => {
    const { env, actor, head, project } = await setup();
    const saved = await saveEnvironmentVersion(
      t.db,
      {
        environmentId: env.id,
        baseVersionId: head.id,
        source: `${head.source}\n# edited\n`,
        message: "tidy",
      },
      actor,
      fakeSandbox,
    );
    expect(saved.version).toBe(2);
    const row = await t.db.environmentVersion.findUniqueOrThrow({ where: { id: saved.versionId } });
    expect(row).toMatchObject({
      authorId: actor.id,
      message: "tidy",
      parentVersionId: head.id,
      producedBy: "user",
    });
    expect((await t.db.environment.findUniqueOrThrow({ where: { id: env.id } })).currentVersionId).toBe(
      saved.versionId,
    );
    // The old version is untouched.
    expect((await t.db.environmentVersion.findUniqueOrThrow({ where: { id: head.id } })).source).toBe(
      head.source,
    );
    const log = await t.db.reviewDecision.findMany({
      where: { projectId: project.id, targetId: saved.versionId },
    });
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      decision: "EDIT",
      actorId: actor.id,
      before: { versionId: head.id },
      after: { versionId: saved.versionId },
    });
  });

  it("refuses a stale save with CONFLICT and the head's source, and never overwrites", async () => {
    const { env, actor, head } = await setup();
    const first = await saveEnvironmentVersion(
      t.db,
      { environmentId: env.id, baseVersionId: head.id, source: `${head.source}\n# A\n`, message: "A" },
      actor,
      fakeSandbox,
    );
    const stale = saveEnvironmentVersion(
      t.db,
      { environmentId: env.id, baseVersionId: head.id, source: `${head.source}\n# B\n`, message: "B" },
      actor,
      fakeSandbox,
    );
    await expect(stale).rejects.toMatchObject({
      code: "CONFLICT",
      details: { headVersionId: first.versionId, headVersion: 2, headSource: `${head.source}\n# A\n` },
    });
    expect(await t.db.environmentVersion.count({ where: { environmentId: env.id } })).toBe(2);
  });

  it("lets exactly one of two concurrent saves on the same base win", async () => {
    const { env, actor, head } = await setup();
    const results = await Promise.allSettled(
      ["X", "Y", "Z"].map((m) =>
        saveEnvironmentVersion(
          t.db,
          { environmentId: env.id, baseVersionId: head.id, source: `${head.source}\n# ${m}\n`, message: m },
          actor,
          fakeSandbox,
        ),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results.filter((x) => x.status === "rejected"))
      expect(r.reason).toMatchObject({ code: "CONFLICT" });
    expect(await t.db.environmentVersion.count({ where: { environmentId: env.id } })).toBe(2);
  });

  it("refuses code with syntax errors and returns editor markers", async () => {
    const { env, actor, head } = await setup();
    const save = saveEnvironmentVersion(
      t.db,
      {
        environmentId: env.id,
        baseVersionId: head.id,
        source: `${head.source}\nSYNTAX(\n`,
        message: "broken",
      },
      actor,
      fakeSandbox,
    );
    await expect(save).rejects.toMatchObject({
      code: "INVALID_INPUT",
      details: {
        markers: [expect.objectContaining({ severity: "error", line: head.source.split("\n").length + 1 })],
      },
    });
  });
});

describe("saving a validator (optimistic locking)", () => {
  it("creates a version, marks the proof stale, and refuses a stale base", async () => {
    const { env, actor } = await setup();
    const scenario = await createScenario(t.db, env.id, {
      checks: ["def check_func(final_state):\n    return True\n"],
    });
    await proveScenario(t.db, scenario.id);
    const validator = await t.db.validator.findFirstOrThrow({ where: { scenarioId: scenario.id } });
    const base = validator.currentVersionId!;
    const saved = await saveValidatorVersion(
      t.db,
      {
        validatorId: validator.id,
        baseVersionId: base,
        code: "def check_func(final_state):\n    return False\n",
        message: "stricter",
      },
      actor,
      fakeSandbox,
    );
    expect(saved.version).toBe(2);
    expect((await t.db.scenario.findUniqueOrThrow({ where: { id: scenario.id } })).proofStatus).toBe("STALE");
    await expect(
      saveValidatorVersion(
        t.db,
        {
          validatorId: validator.id,
          baseVersionId: base,
          code: "def check_func(final_state):\n    return 1\n",
          message: "late",
        },
        actor,
        fakeSandbox,
      ),
    ).rejects.toMatchObject({ code: "CONFLICT", details: { headVersion: 2 } });
    expect(
      await t.db.reviewDecision.count({ where: { targetType: "VALIDATOR", targetId: validator.id } }),
    ).toBe(1);
  });
});
