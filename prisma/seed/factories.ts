/**
 * Seed factories shared by tests and benchmarks: small, valid rows with overridable fields.
 */
import { randomBytes } from "node:crypto";
import type { Db, Prisma } from "../../lib/db";
import { sha256 } from "../../lib/environments/hash";
import type { SeenVersions } from "../../lib/review/review.schema";
import type { TrajectoryMessages } from "../../lib/rollout/rollout.schema";

const uid = () => randomBytes(6).toString("hex");

export async function createTestProject(db: Db, name = "test") {
  return db.project.create({ data: { slug: `${name}-${uid()}`, name } });
}

const MINIMAL_SOURCE = `class Counter:\n    def __init__(self, init_config=None):\n        self.count = 0\n\n    def get_count(self) -> dict:\n        """Return the counter."""\n        return {"success": True, "data": self.count}\n`;

export async function createEnvironment(
  db: Db,
  projectId: string,
  overrides: Partial<Prisma.EnvironmentUncheckedCreateInput> & { source?: string; tools?: unknown[] } = {},
) {
  const { source = MINIMAL_SOURCE, tools = [], ...env } = overrides;
  const slug = env.slug ?? `env-${uid()}`;
  const created = await db.environment.create({
    data: {
      projectId,
      slug,
      name: env.name ?? slug,
      origin: "MANUAL",
      status: "DRAFT",
      toolCount: tools.length,
      ...env,
    },
  });
  const version = await db.environmentVersion.create({
    data: {
      environmentId: created.id,
      version: 1,
      className: "Counter",
      source,
      sourceHash: sha256(source),
      tools: tools as Prisma.InputJsonValue,
      producedBy: "test",
    },
  });
  return db.environment.update({ where: { id: created.id }, data: { currentVersionId: version.id } });
}

/** A new project with one environment and `count` scenarios on it, each with the fields given. */
export async function createProjectWithScenarios(
  db: Db,
  count: number,
  fields: {
    environment?: Parameters<typeof createEnvironment>[2];
    scenario?: Parameters<typeof createScenario>[2];
  } = {},
) {
  const project = await createTestProject(db);
  const env = await createEnvironment(db, project.id, fields.environment);
  const scenarios = [];
  for (let i = 0; i < count; i++) scenarios.push(await createScenario(db, env.id, fields.scenario));
  return { project, env, scenarios };
}

/** Many environments in one statement (for list-page tests and benchmarks). */
export async function createManyEnvironments(
  db: Db,
  projectId: string,
  count: number,
  shape: (i: number) => Partial<Prisma.EnvironmentCreateManyInput> = () => ({}),
) {
  const rows: Prisma.EnvironmentCreateManyInput[] = Array.from({ length: count }, (_, i) => ({
    projectId,
    slug: `bulk-${i}-${uid()}`,
    name: `Bulk environment ${i}`,
    origin: "MANUAL",
    status: "DRAFT",
    ...shape(i),
  }));
  for (let i = 0; i < rows.length; i += 5000)
    await db.environment.createMany({ data: rows.slice(i, i + 5000) });
}

/**
 * Stores a proof row with this status for exactly the scenario's current versions, as a proof run
 * would (the proof itself has its own tests). Proof status comes only from proof rows
 * (lib/scenarios/proof-status.ts): no fixture sets it without one.
 */
export async function proveScenario(db: Db, scenarioId: string, status: "VERIFIED" | "FAILED" = "VERIFIED") {
  const { environmentVersionId, validatorVersionIds } = await scenarioPins(db, scenarioId);
  await db.validatorProof.create({
    data: {
      scenarioId,
      environmentVersionId,
      validatorVersionIds,
      status,
      noop: {},
      gold: {},
      sensitivity: {},
    },
  });
  await db.scenario.update({ where: { id: scenarioId }, data: { proofStatus: status } });
  return validatorVersionIds;
}

/** Accepts every environment and scenario of the project on its current, proven versions (what a dataset takes in). */
export async function acceptAndProveScenarios(db: Db, projectId: string) {
  await db.$executeRaw`UPDATE "Environment" SET "status" = 'ACCEPTED', "acceptedVersionId" = "currentVersionId"
    WHERE "projectId" = ${projectId}`;
  const scenarios = await db.scenario.findMany({
    where: { environment: { projectId } },
    select: { id: true },
  });
  for (const { id } of scenarios) await acceptAndProveScenario(db, id);
}

/** Proves one scenario on its current versions and accepts it on them (its environment is left as it is). */
export async function acceptAndProveScenario(db: Db, scenarioId: string) {
  const accepted = await proveScenario(db, scenarioId);
  await db.scenario.update({
    where: { id: scenarioId },
    data: { status: "ACCEPTED", acceptedValidatorVersionIds: accepted },
  });
}

/**
 * A trajectory for a scenario, stored the way a rollout stores it (pinned to the environment
 * version the scenario was made on and the current validator versions), passing the SFT filter
 * unless told otherwise.
 */
export async function createTrajectory(
  db: Db,
  scenarioId: string,
  overrides: Partial<Prisma.TrajectoryUncheckedCreateInput> = {},
) {
  const scenario = await db.scenario.findUniqueOrThrow({
    where: { id: scenarioId },
    include: { validators: { orderBy: { position: "asc" }, select: { currentVersionId: true } } },
  });
  const messages: TrajectoryMessages = {
    agent: [
      { role: "system", content: "You are a helpful assistant." },
      { role: "user", content: scenario.task },
      { role: "assistant", content: null, toolCalls: [{ id: "call_1", name: "noop", arguments: "{}" }] },
      { role: "tool", toolCallId: "call_1", content: '{"success": true}' },
      { role: "assistant", content: "Task Completed" },
    ],
    user: [],
    endReason: "agent_replied",
    finalText: "Task Completed",
    score: 1,
  };
  return db.trajectory.create({
    data: {
      scenarioId,
      environmentVersionId: scenario.environmentVersionId,
      validatorVersionIds: scenario.validators.flatMap((v) =>
        v.currentVersionId ? [v.currentVersionId] : [],
      ),
      model: "test-model",
      mode: "fc",
      messages,
      steps: [],
      finalState: {},
      checkResults: [],
      reward: 1,
      status: "COMPLETED",
      stepCount: 1,
      sftPass: true,
      ...overrides,
    },
  });
}

/** The session user a domain function receives for this user. */
export const actorOf = (u: {
  id: string;
  email: string;
  name: string;
  role: "ADMIN" | "REVIEWER" | "VIEWER";
}) => ({
  id: u.id,
  email: u.email,
  name: u.name,
  role: u.role,
});

/** A user with a known password (hashing is real: tests log in through the same code). */
export async function createUser(
  db: Db,
  overrides: {
    role?: "ADMIN" | "REVIEWER" | "VIEWER";
    password?: string;
    email?: string;
    disabled?: boolean;
  } = {},
) {
  const { hashPassword } = await import("../../lib/auth/password");
  const password = overrides.password ?? "correct horse battery";
  const user = await db.user.create({
    data: {
      email: overrides.email ?? `user-${uid()}@test.local`,
      name: `User ${uid()}`,
      role: overrides.role ?? "REVIEWER",
      passwordHash: await hashPassword(password),
      disabledAt: overrides.disabled ? new Date() : null,
    },
  });
  return { ...user, password };
}

/** A scenario on the environment's current version, with one validator per check code. */
export async function createScenario(
  db: Db,
  environmentId: string,
  overrides: {
    checks?: string[];
    initialState?: Record<string, unknown>;
    goldCalls?: unknown[];
    task?: string;
    status?: "DRAFT" | "IN_REVIEW" | "VERIFIED" | "ACCEPTED" | "REJECTED";
    proofReasons?: string[];
  } = {},
) {
  const env = await db.environment.findUniqueOrThrow({ where: { id: environmentId } });
  const task = overrides.task ?? `Task ${uid()}`;
  const checks = overrides.checks ?? [
    "def check_func(final_state):\n    return final_state.get('count') == 1\n",
  ];
  const scenario = await db.scenario.create({
    data: {
      environmentId,
      environmentVersionId: env.currentVersionId!,
      externalId: `scn-${uid()}`,
      task,
      taskHash: sha256(task),
      initialState: (overrides.initialState ?? { count: 0 }) as Prisma.InputJsonValue,
      checklist: checks.map((_, i) => `check ${i + 1}`),
      goldCalls: overrides.goldCalls as Prisma.InputJsonValue | undefined,
      status: overrides.status ?? "DRAFT",
      proofReasons: overrides.proofReasons ?? [],
      origin: "MANUAL",
    },
  });
  for (const [position, code] of checks.entries()) {
    const validator = await db.validator.create({
      data: { scenarioId: scenario.id, position, checkItem: `check ${position + 1}` },
    });
    const v1 = await db.validatorVersion.create({
      data: {
        validatorId: validator.id,
        version: 1,
        code,
        checkItem: validator.checkItem,
        producedBy: "test",
      },
    });
    await db.validator.update({ where: { id: validator.id }, data: { currentVersionId: v1.id } });
  }
  return scenario;
}

/** A quality check with probes on an environment version (the pipeline writes these in production). */
export async function createQualityCheck(
  db: Db,
  environmentVersionId: string,
  verdicts: ("PASS" | "WARNING" | "FAIL")[] = ["PASS", "FAIL"],
) {
  const pass = verdicts.filter((v) => v === "PASS").length;
  return db.qualityCheck.create({
    data: {
      environmentVersionId,
      testState: { count: 0 },
      rounds: verdicts.length,
      passCount: pass,
      warningCount: verdicts.filter((v) => v === "WARNING").length,
      failCount: verdicts.filter((v) => v === "FAIL").length,
      passRate: verdicts.length ? pass / verdicts.length : 0,
      notFailRate: verdicts.length ? verdicts.filter((v) => v !== "FAIL").length / verdicts.length : 0,
      passed: verdicts.length > 0 && pass / verdicts.length >= 0.85,
      probes: {
        create: verdicts.map((verdict, index) => ({
          index,
          kind: index % 2 ? "negative" : "positive",
          toolName: "get_count",
          arguments: { probe: index },
          observation: { success: true, data: index },
          stateDiff: { added: [], removed: [], changed: [] },
          verdict,
          rationale: `judge says ${verdict}`,
        })),
      },
    },
    include: { probes: { orderBy: { index: "asc" } } },
  });
}

/** What a review page shows for an item right now: the versions a decision on it must name. */
export async function currentVersionsOf(
  db: Db,
  kind: "environment" | "scenario" | "trajectory",
  id: string,
): Promise<SeenVersions & { id: string }> {
  if (kind === "trajectory") return { kind, id };
  if (kind === "environment") {
    const env = await db.environment.findUniqueOrThrow({ where: { id } });
    return { kind, id, versionId: env.currentVersionId! };
  }
  return { kind, id, ...(await scenarioPins(db, id)) };
}

async function scenarioPins(db: Db, scenarioId: string) {
  const s = await db.scenario.findUniqueOrThrow({
    where: { id: scenarioId },
    include: {
      environment: { select: { currentVersionId: true } },
      validators: { orderBy: { position: "asc" }, select: { currentVersionId: true } },
    },
  });
  return {
    environmentVersionId: s.environment.currentVersionId!,
    validatorVersionIds: s.validators.flatMap((v) => (v.currentVersionId ? [v.currentVersionId] : [])),
  };
}
