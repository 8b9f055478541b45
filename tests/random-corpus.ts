/**
 * Random corpora for tests that compare the dataset plan's two readings: environments in every
 * status with several versions, scenarios in every status whose accepted checks may be current,
 * stale, unknown or malformed, proofs on right and wrong pins (with ties in time) carrying weak or
 * strong near-miss evidence, and rollouts on right and wrong pins. Slugs and external ids are
 * chosen so that code-point order, (slug, id) order and locale order all differ.
 */
import type { Db } from "../lib/db";

export type Random = () => number;
export const pick = <T>(r: Random, items: readonly T[]): T => items[Math.floor(r() * items.length)] as T;
export const chance = (r: Random, p: number) => r() < p;
export const some = <T>(r: Random, items: readonly T[], p: number) => items.filter(() => chance(r, p));

const ENV_STATUSES = ["DRAFT", "IN_REVIEW", "ACCEPTED", "ACCEPTED", "REJECTED", "FAILED"] as const;
const SCENARIO_STATUSES = ["DRAFT", "IN_REVIEW", "VERIFIED", "ACCEPTED", "ACCEPTED", "REJECTED"] as const;
// Slugs and ids chosen so code-point order differs from (slug, id) order and from locale order.
const SLUGS = ["ab", "ab-c", "abc", "a", "Zed", "b_1"];
const EXTERNAL_IDS = ["1", "10", "2", "a", "B", "a-b", "a b", "é", "z"];

export const weakEvidence = {
  status: "MEASURED",
  reason: null,
  cap: 8,
  stateChangingCalls: [0],
  results: [
    {
      nearMiss: { kind: "drop", callIndex: 0, description: "drop the call" },
      outcome: "JUDGED",
      checks: [{ passed: true }],
      reward: 1,
      error: null,
    },
  ],
};
const strongEvidence = {
  ...weakEvidence,
  results: [{ ...weakEvidence.results[0], checks: [{ passed: false }], reward: 0 }],
};

export type Corpus = {
  projectId: string;
  environments: { id: string; slug: string; versions: string[] }[];
  scenarios: { id: string; environmentId: string; validatorVersions: string[][] }[];
};

export async function seedCorpus(db: Db, r: Random, tag: string): Promise<Corpus> {
  const project = await db.project.create({ data: { slug: `p-${tag}`, name: `Corpus ${tag}` } });
  const corpus: Corpus = { projectId: project.id, environments: [], scenarios: [] };
  const slugs = some(r, SLUGS, 0.7);
  for (const slug of slugs.length ? slugs : ["ab"]) {
    const env = await db.environment.create({
      data: { projectId: project.id, slug, name: slug, status: pick(r, ENV_STATUSES), origin: "MANUAL" },
    });
    const versions: string[] = [];
    for (let v = 1; v <= 1 + Math.floor(r() * 3); v++) {
      const row = await db.environmentVersion.create({
        data: {
          environmentId: env.id,
          version: v,
          className: "Env",
          source: `class Env: pass # ${v}`,
          sourceHash: `${env.id}-${v}`,
          producedBy: "test",
        },
      });
      versions.push(row.id);
    }
    await db.environment.update({
      where: { id: env.id },
      data: {
        currentVersionId: versions.at(-1),
        acceptedVersionId: chance(r, 0.7) ? (chance(r, 0.7) ? versions.at(-1) : pick(r, versions)) : null,
      },
    });
    corpus.environments.push({ id: env.id, slug, versions });
    for (const externalId of some(r, EXTERNAL_IDS, 0.7)) {
      const scenario = await db.scenario.create({
        data: {
          environmentId: env.id,
          environmentVersionId: versions.at(-1) as string,
          externalId,
          initialState: {},
          task: `Task ${externalId}`,
          taskHash: `${env.id}-${externalId}`,
          status: pick(r, SCENARIO_STATUSES),
          origin: "MANUAL",
        },
      });
      const validatorVersions: string[][] = [];
      for (let position = 0; position < 1 + Math.floor(r() * 2); position++) {
        const validator = await db.validator.create({
          data: { scenarioId: scenario.id, position, checkItem: `check ${position}` },
        });
        const ids: string[] = [];
        for (let v = 1; v <= 1 + Math.floor(r() * 2); v++) {
          const row = await db.validatorVersion.create({
            data: {
              validatorId: validator.id,
              version: v,
              code: "def check_func(s): return True",
              checkItem: "c",
              producedBy: "test",
            },
          });
          ids.push(row.id);
        }
        await db.validator.update({ where: { id: validator.id }, data: { currentVersionId: ids.at(-1) } });
        validatorVersions.push(ids);
      }
      const current = validatorVersions.map((ids) => ids.at(-1) as string);
      const older = validatorVersions.map((ids) => ids[0] as string);
      await db.scenario.update({
        where: { id: scenario.id },
        data: {
          // Stale, unknown and malformed accepted checks too (a number is not an id).
          acceptedValidatorVersionIds:
            pick(r, [current, current, older, ["unknown"], [current[0] ?? "", 7], null]) ?? undefined,
        },
      });
      corpus.scenarios.push({ id: scenario.id, environmentId: env.id, validatorVersions });
      await addEvidence(db, r, corpus, scenario.id);
    }
  }
  return corpus;
}

/** Proofs and rollouts on the scenario's likely pins and on wrong ones. */
export async function addEvidence(db: Db, r: Random, corpus: Corpus, scenarioId: string) {
  const s = corpus.scenarios.find((x) => x.id === scenarioId);
  const env = corpus.environments.find((e) => e.id === s?.environmentId);
  if (!s || !env) return;
  // Mostly on the current versions (what acceptance pins), sometimes on any.
  const pinsOf = () => ({
    environmentVersionId: chance(r, 0.7) ? (env.versions.at(-1) as string) : pick(r, env.versions),
    validatorVersionIds: s.validatorVersions.map((ids) =>
      chance(r, 0.8) ? (ids.at(-1) as string) : pick(r, ids),
    ),
  });
  // Two proofs may share a timestamp: the newest is then the one with the greater id.
  const at = new Date(Date.UTC(2026, 0, 1 + Math.floor(r() * 3)));
  for (let i = 0; i < Math.floor(r() * 4); i++)
    await db.validatorProof.create({
      data: {
        scenarioId,
        ...pinsOf(),
        status: pick(r, ["VERIFIED", "VERIFIED", "VERIFIED", "FAILED", "STALE"] as const),
        noop: {},
        gold: {},
        sensitivity: {},
        nearMiss: pick(r, [weakEvidence, strongEvidence, { status: "NOT_RUN" }, undefined]),
        createdAt: chance(r, 0.5) ? at : new Date(Date.UTC(2026, 0, 1 + Math.floor(r() * 3))),
      },
    });
  for (let i = 0; i < Math.floor(r() * 7); i++)
    await db.trajectory.create({
      data: {
        scenarioId,
        ...pinsOf(),
        model: pick(r, ["model-a", "model-b"]),
        mode: "non_conversational",
        messages: {},
        steps: [],
        finalState: {},
        checkResults: [],
        reward: pick(r, [0, 1, 1, 0.5]),
        status: "COMPLETED",
        stepCount: 1,
      },
    });
}
