import "server-only";
import type { Db } from "../../db";

const PREFIX = "worker.heartbeat.";
/** A worker that has not beaten for this long is shown as offline. */
export const HEARTBEAT_STALE_MS = 30_000;

export async function recordHeartbeat(db: Db, workerId: string): Promise<void> {
  const value = { workerId, at: new Date().toISOString() };
  await db.setting.upsert({
    where: { key: PREFIX + workerId },
    update: { value },
    create: { key: PREFIX + workerId, value },
  });
}

export async function findLiveWorkers(db: Db, now = new Date()): Promise<string[]> {
  const rows = await db.setting.findMany({ where: { key: { startsWith: PREFIX } } });
  return rows
    .filter((r) => r.updatedAt.getTime() > now.getTime() - HEARTBEAT_STALE_MS)
    .map((r) => r.key.slice(PREFIX.length));
}
