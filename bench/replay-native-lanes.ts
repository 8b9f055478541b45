/**
 * The replay bench's native lanes: warm python3 processes (bench/replay-native.py), as many as the
 * sandbox lanes have episodes in flight, each holding the parsed batch. A batch hands each episode
 * to the next free process, so the native side is timed on the same warmth and parallelism as the
 * sandbox side and without interpreter start-up or file parsing.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";

type Lane = { child: ChildProcess; next: () => Promise<string> };
export type LaneOutcome = { ms: number; passed: number; failed: number };

async function startLane(file: string): Promise<Lane> {
  const child = spawn("/usr/bin/python3", ["-I", path.join(import.meta.dirname, "replay-native.py"), file], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => {
    const line = await lines.next();
    if (line.done) throw new Error(`native lane ${child.pid} exited`);
    return String(line.value);
  };
  if ((await next()) !== "ready") throw new Error("native lane did not start");
  return { child, next };
}

export async function startNativeLanes(file: string, count: number) {
  const lanes = await Promise.all(Array.from({ length: count }, () => startLane(file)));
  return {
    /** Runs the episodes at these indices of the batch file, one per free lane at a time. */
    async run(indices: number[]): Promise<LaneOutcome> {
      const queue = [...indices];
      let passed = 0;
      let failed = 0;
      const start = performance.now();
      await Promise.all(
        lanes.map(async (lane) => {
          for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
            lane.child.stdin!.write(`${i}\n`);
            if ((await lane.next()) === "1") passed += 1;
            else failed += 1;
          }
        }),
      );
      return { ms: performance.now() - start, passed, failed };
    },
    close() {
      for (const lane of lanes) lane.child.stdin!.end();
    },
  };
}
