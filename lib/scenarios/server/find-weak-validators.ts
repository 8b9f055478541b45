import "server-only";
/**
 * Validator strength as the studio reads it: always from the newest proof row for exactly the
 * scenario's current environment version and validator versions (as proof status is), so strength
 * measured for older versions never shows for new ones. `findWeakValidators` lists the scenarios
 * whose current checks accept a near-miss — what repair targets like a failed proof.
 */
import type { Db, Prisma } from "@/lib/db";
import { idList } from "@/lib/review/acceptance";
import {
  type NearMissStrength,
  type PassedNearMiss,
  isWeakValidator,
  strengthOfProofRow,
} from "../near-miss-strength";
import type { ProofPins } from "../proof-status";

type ProofReader = Pick<Prisma.TransactionClient, "$queryRaw">;

type PinnedProofRow = { scenarioId: string; nearMiss: unknown; gold: unknown; validatorVersionIds: unknown };

/**
 * Strength per scenario for exactly those pins; a scenario without such a proof (or evidence) maps
 * to null. One query whatever the number asked: the wanted pins travel as one JSON parameter and
 * Postgres picks the newest proof row of each (ties broken by id, as proof status does).
 */
export async function findPinnedStrengths(
  db: ProofReader,
  wanted: { scenarioId: string; pins: ProofPins }[],
): Promise<Map<string, NearMissStrength | null>> {
  if (wanted.length === 0) return new Map();
  const asked = JSON.stringify(
    wanted.map((w) => ({
      scenarioId: w.scenarioId,
      environmentVersionId: w.pins.environmentVersionId,
      validatorVersionIds: w.pins.validatorVersionIds,
    })),
  );
  const rows = await db.$queryRaw<PinnedProofRow[]>`
    SELECT DISTINCT ON (p."scenarioId") p."scenarioId", p."nearMiss", p."gold", p."validatorVersionIds"
    FROM jsonb_to_recordset(${asked}::jsonb)
      AS w("scenarioId" text, "environmentVersionId" text, "validatorVersionIds" jsonb)
    JOIN "ValidatorProof" p
      ON p."scenarioId" = w."scenarioId" AND p."environmentVersionId" = w."environmentVersionId"
     AND p."validatorVersionIds" = w."validatorVersionIds"
    ORDER BY p."scenarioId", p."createdAt" DESC, p."id" DESC`;
  const byScenario = new Map(rows.map((r) => [r.scenarioId, strengthOfProofRow(r)]));
  return new Map(wanted.map((w) => [w.scenarioId, byScenario.get(w.scenarioId) ?? null]));
}

export async function findPinnedStrength(
  db: ProofReader,
  scenarioId: string,
  pins: ProofPins,
): Promise<NearMissStrength | null> {
  return (await findPinnedStrengths(db, [{ scenarioId, pins }])).get(scenarioId) ?? null;
}

export type WeakValidatorItem = {
  scenarioId: string;
  externalId: string;
  environmentId: string;
  pins: ProofPins;
  strength: NearMissStrength;
  /** The near-misses the checks gave full reward, with the calls that replay each. */
  passed: PassedNearMiss[];
};

/**
 * The scenarios of a project (optionally one environment or some scenarios) whose checks, on their
 * current versions, accept a near-miss. Each comes with its pins, so a fix can be proven against
 * exactly the evidence that flagged it. Ordered by environment, then scenario id.
 */
export async function findWeakValidators(
  db: Db,
  filter: { projectId: string; environmentId?: string; scenarioIds?: string[] },
): Promise<WeakValidatorItem[]> {
  const scenarios = await db.scenario.findMany({
    where: {
      environment: { projectId: filter.projectId },
      ...(filter.environmentId ? { environmentId: filter.environmentId } : {}),
      ...(filter.scenarioIds ? { id: { in: filter.scenarioIds } } : {}),
      status: { not: "REJECTED" },
    },
    orderBy: [{ environmentId: "asc" }, { externalId: "asc" }],
    select: {
      id: true,
      externalId: true,
      environmentId: true,
      environment: { select: { currentVersionId: true } },
      validators: { orderBy: { position: "asc" }, select: { currentVersionId: true } },
    },
  });
  const wanted = scenarios.flatMap((s) =>
    s.environment.currentVersionId
      ? [
          {
            scenario: s,
            scenarioId: s.id,
            pins: {
              environmentVersionId: s.environment.currentVersionId,
              validatorVersionIds: idList(s.validators.map((v) => v.currentVersionId).filter(Boolean)) ?? [],
            },
          },
        ]
      : [],
  );
  const strengths = await findPinnedStrengths(db, wanted);
  return wanted.flatMap((w) => {
    const strength = strengths.get(w.scenarioId) ?? null;
    if (!strength || !isWeakValidator(strength)) return [];
    return [
      {
        scenarioId: w.scenarioId,
        externalId: w.scenario.externalId,
        environmentId: w.scenario.environmentId,
        pins: w.pins,
        strength,
        passed: strength.passed,
      },
    ];
  });
}
