import "server-only";
import type { Db } from "@/lib/db";

/** The environment a validator's scenario belongs to (whose proofs an edit makes stale). */
export async function findValidatorEnvironmentId(db: Db, validatorId: string): Promise<string> {
  const validator = await db.validator.findUniqueOrThrow({
    where: { id: validatorId },
    select: { scenario: { select: { environmentId: true } } },
  });
  return validator.scenario.environmentId;
}
