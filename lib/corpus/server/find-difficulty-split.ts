import "server-only";
/**
 * The seam for "scenarios by difficulty". Per-scenario difficulty (success rate over the rollouts
 * that match a scenario's pins) is computed by the datasets' difficulty module; until the map reads
 * it, this answers null and the page says difficulty is not available.
 */
import type { Db } from "@/lib/db";
import type { CorpusScope } from "../corpus.schema";
import type { CountRow } from "../splits";

export function findDifficultySplit(_db: Db, _scope: CorpusScope): Promise<CountRow[] | null> {
  return Promise.resolve(null);
}
