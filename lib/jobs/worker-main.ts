/**
 * `npm run worker`: a job worker process. Run as many as you like, on any machine that can reach
 * DATABASE_URL. Records a heartbeat so the studio can show which workers are alive.
 */
import os from "node:os";
import { createDb, getDb } from "../db";
import { JOB_DEFINITIONS, loadJobHandler } from "./server/job-handlers";
import { startWorker } from "./worker";
import { recordHeartbeat } from "./server/heartbeat";
import { readEnv } from "../env";

const url = readEnv("DATABASE_URL");
if (!url) {
  console.error("[worker] DATABASE_URL is not set (npm start sets it for the embedded database).");
  process.exit(1);
}
const db = createDb(url, 2);
// Handlers use the process's shared client (getDb); heartbeats keep their own small pool.
const worker = await startWorker(url, JOB_DEFINITIONS, { db: getDb(), loadHandler: loadJobHandler });
const id = `${os.hostname()}:${process.pid}`;
const beat = () =>
  recordHeartbeat(db, id).catch((e: Error) => console.error("[worker] heartbeat:", e.message));
await beat();
const timer = setInterval(() => void beat(), 10_000);
console.log(`[worker] ${id} running ${JOB_DEFINITIONS.length} job types`);

const stop = async () => {
  clearInterval(timer);
  await worker.stop();
  await db.$disconnect();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
