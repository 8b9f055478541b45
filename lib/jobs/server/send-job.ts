import "server-only";
/**
 * Enqueuing from the web process: a pg-boss instance that only sends (no supervision, no
 * workers), started lazily on first use. Queues are created on first send, so the web server can
 * enqueue before any worker has started.
 */
import type { PgBoss } from "pg-boss";
import { enqueue, ensureQueues, startBoss } from "../boss";
import type { JobDefinition } from "../job-definition";
import { readEnv } from "../../env";

export type JobSender = (def: JobDefinition, payload: unknown, key: string) => Promise<string | null>;

const cache = globalThis as unknown as { envstudioSender?: Promise<PgBoss> };
const ensured = new Set<string>();

export function senderFor(boss: PgBoss): JobSender {
  return async (def, payload, key) => {
    if (!ensured.has(def.name)) {
      await ensureQueues(boss, [def]);
      ensured.add(def.name);
    }
    return enqueue(boss, def, payload, key);
  };
}

export const sendJob: JobSender = async (def, payload, key) => {
  const url = readEnv("DATABASE_URL");
  if (!url) throw new Error("DATABASE_URL is not set");
  cache.envstudioSender ??= startBoss(url, { supervise: false });
  return senderFor(await cache.envstudioSender)(def, payload, key);
};
