/**
 * Seed factories shared by tests and benchmarks: small, valid rows with overridable fields.
 */
import { randomBytes } from "node:crypto";
import type { Db, Prisma } from "../../lib/db";
import { sha256 } from "../../lib/environments/hash";

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
    data: { projectId, slug, name: env.name ?? slug, origin: "MANUAL", status: "DRAFT", toolCount: tools.length, ...env },
  });
  const version = await db.environmentVersion.create({
    data: {
      environmentId: created.id, version: 1, className: "Counter", source, sourceHash: sha256(source),
      tools: tools as Prisma.InputJsonValue, producedBy: "test",
    },
  });
  return db.environment.update({ where: { id: created.id }, data: { currentVersionId: version.id } });
}

/** Many environments in one statement (for list-page tests and benchmarks). */
export async function createManyEnvironments(db: Db, projectId: string, count: number, shape: (i: number) => Partial<Prisma.EnvironmentCreateManyInput> = () => ({})) {
  const rows: Prisma.EnvironmentCreateManyInput[] = Array.from({ length: count }, (_, i) => ({
    projectId, slug: `bulk-${i}-${uid()}`, name: `Bulk environment ${i}`, origin: "MANUAL", status: "DRAFT", ...shape(i),
  }));
  for (let i = 0; i < rows.length; i += 5000) await db.environment.createMany({ data: rows.slice(i, i + 5000) });
}

/** Marks every scenario of the project accepted and verified (what a dataset takes in). */
export async function acceptAndVerifyScenarios(db: Db, projectId: string) {
  await db.environment.updateMany({ where: { projectId }, data: { status: "ACCEPTED" } });
  await db.scenario.updateMany({ where: { environment: { projectId } }, data: { status: "ACCEPTED", proofStatus: "VERIFIED" } });
}

/** A trajectory for a scenario (OpenAI-style messages), passing the SFT filter unless told otherwise. */
export async function createTrajectory(db: Db, scenarioId: string, overrides: Partial<Prisma.TrajectoryUncheckedCreateInput> = {}) {
  const scenario = await db.scenario.findUniqueOrThrow({ where: { id: scenarioId } });
  return db.trajectory.create({
    data: {
      scenarioId, environmentVersionId: scenario.environmentVersionId, model: "test-model", mode: "fc",
      messages: [
        { role: "system", content: "You are a helpful assistant." },
        { role: "user", content: scenario.task },
        { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "noop", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "call_1", content: "{\"success\": true}" },
        { role: "assistant", content: "Task Completed" },
      ],
      steps: [], finalState: {}, checkResults: [], reward: 1, status: "COMPLETED", stepCount: 1, sftPass: true, ...overrides,
    },
  });
}
