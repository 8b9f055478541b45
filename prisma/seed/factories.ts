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

/** A user with a known password (hashing is real: tests log in through the same code). */
export async function createUser(db: Db, overrides: { role?: "ADMIN" | "REVIEWER" | "VIEWER"; password?: string; email?: string; disabled?: boolean } = {}) {
  const { hashPassword } = await import("../../lib/auth/password");
  const password = overrides.password ?? "correct horse battery";
  const user = await db.user.create({
    data: {
      email: overrides.email ?? `user-${uid()}@test.local`, name: `User ${uid()}`, role: overrides.role ?? "REVIEWER",
      passwordHash: await hashPassword(password), disabledAt: overrides.disabled ? new Date() : null,
    },
  });
  return { ...user, password };
}
