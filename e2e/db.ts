/**
 * Direct access to the browser tier's embedded database, so specs create their own data with the
 * same seed factories as the DB tests (unique names: the data dir may outlive one run).
 */
import fs from "node:fs";
import path from "node:path";
import { createDb, type Db } from "../lib/db";
import { E2E_DATA_DIR, E2E_PG_PORT } from "../playwright.config";

export function e2eDatabaseUrl(): string {
  const password = fs.readFileSync(path.join(E2E_DATA_DIR, "pg-password"), "utf8").trim();
  return `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${E2E_PG_PORT}/envstudio`;
}

let db: Db | null = null;
export function e2eDb(): Db {
  db ??= createDb(e2eDatabaseUrl(), 2);
  return db;
}

export async function defaultProjectId(): Promise<string> {
  return (await e2eDb().project.findUniqueOrThrow({ where: { slug: "default" } })).id;
}

export const unique = (prefix: string) =>
  `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/**
 * Specs share the studio's default project with the seeded samples (and studio.spec.ts expects
 * only samples there), so each spec deletes the environments it created. Scenarios go first:
 * they restrict deleting the versions they pin. The append-only review log keeps its rows.
 */
export async function deleteEnvironments(ids: string[]): Promise<void> {
  const db = e2eDb();
  await db.scenario.deleteMany({ where: { environmentId: { in: ids } } });
  await db.environment.deleteMany({ where: { id: { in: ids } } });
}

/** A uniquely named copy of a sample environment (accepted, with its scenarios and gold calls). */
export async function copySample(sampleSlug: string): Promise<{ id: string; slug: string; name: string }> {
  const { loadSamples } = await import("../prisma/seed/load-samples");
  const { seedSamples } = await import("../prisma/seed/seed-samples");
  const sample = loadSamples().find((s) => s.slug === sampleSlug);
  if (!sample) throw new Error(`no sample ${sampleSlug}`);
  const slug = unique(sampleSlug);
  const name = `${sample.meta.environment_summary} ${slug}`;
  await seedSamples(e2eDb(), {
    projectId: await defaultProjectId(),
    samples: [{ ...sample, slug, meta: { ...sample.meta, environment_summary: name } }],
    toolsFor: () => Promise.resolve([]),
  });
  const env = await e2eDb().environment.findUniqueOrThrow({
    where: { projectId_slug: { projectId: await defaultProjectId(), slug } },
  });
  return { id: env.id, slug, name };
}

/** Datasets made from test environments go first: their items restrict deleting scenarios. */
export async function deleteDatasets(names: string[]): Promise<void> {
  await e2eDb().dataset.deleteMany({ where: { name: { in: names } } });
}
