import "server-only";
import { z } from "zod";
import type { Db } from "@/lib/db";

/** A stored initial state that is not an object (hand-edited rows, old imports) starts the playground empty. */
const StateSchema = z.record(z.string(), z.unknown()).catch({});

/** The environment's scenarios, oldest first, as starting states to pick in the playground. */
export async function findPlaygroundScenarios(db: Db, environmentId: string) {
  const rows = await db.scenario.findMany({
    where: { environmentId },
    orderBy: { createdAt: "asc" },
    select: { id: true, externalId: true, initialState: true },
  });
  return rows.map((s) => ({
    id: s.id,
    externalId: s.externalId,
    initialState: StateSchema.parse(s.initialState),
  }));
}
