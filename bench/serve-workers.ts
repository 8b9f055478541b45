/**
 * `npm run bench -- serve-workers`: memory per additional sandbox worker of `envstudio serve`
 * (target: ≤ 150 MiB per additional Pyodide worker), for deployments that give each session a
 * worker of its own (SANDBOX_WORKERS_PER_SOURCE=0, set here; by default sessions of one source
 * share one worker per core, and the serve bench measures that). The server (bench/serve-child.ts,
 * the same stack as the serve bench) starts with a pool of 8 and then of 32 workers, no spares;
 * every worker plays one library-lending episode; then the server's process tree is measured (PSS).
 * Per worker = (PSS at 32 − PSS at 8) / 24.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { round, writeResult } from "./bench-util";
import { treePssBytes } from "./proc-memory";
import { scenarioFile } from "./serve";
import { drive } from "./serve-load";

const SMALL = 8;
const LARGE = 32;

async function treeMiBWith(
  backend: string,
  pool: number,
  file: string,
  gold: Parameters<typeof drive>[1],
): Promise<number> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "bench/serve-child.ts", file], {
    cwd: `${import.meta.dirname}/..`,
    stdio: ["ignore", "pipe", "inherit"],
    env: {
      ...process.env,
      SANDBOX_BACKEND: backend,
      SANDBOX_POOL_SIZE: String(pool),
      SANDBOX_SPARE_WORKERS: "0",
      SANDBOX_WORKERS_PER_SOURCE: "0",
    },
  });
  try {
    const first = await createInterface({ input: child.stdout! })[Symbol.asyncIterator]().next();
    const { port } = JSON.parse(String(first.value)) as { port: number };
    const warm = await drive(`ws://127.0.0.1:${port}/ws`, gold, pool, 0, 1);
    if (warm.failures.length) throw new Error(`${backend}: ${warm.failures[0]}`);
    await new Promise((r) => setTimeout(r, 2000)); // let the pool settle (replacement boots, GC)
    return round(treePssBytes(child.pid ?? 0) / 1024 / 1024);
  } finally {
    child.kill("SIGTERM");
  }
}

export async function main() {
  const { file, gold } = scenarioFile();
  const metrics: Record<string, number> = {};
  for (const backend of ["pyodide", "bwrap"]) {
    const small = await treeMiBWith(backend, SMALL, file, gold);
    const large = await treeMiBWith(backend, LARGE, file, gold);
    Object.assign(metrics, {
      [`${backend}MiBAt${SMALL}`]: small,
      [`${backend}MiBAt${LARGE}`]: large,
      [`${backend}MiBPerExtraWorker`]: round((large - small) / (LARGE - SMALL)),
    });
  }
  writeResult("serve-workers", metrics, {
    pyodideMiBPerExtraWorker: "<= 150",
    note: "PSS of the server's process tree after every worker played one episode",
  });
}
