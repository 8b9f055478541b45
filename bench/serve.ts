/**
 * `npm run bench -- serve`: steps/s and step latency (p50/p99) with 32 concurrent sessions on the
 * EnvStudio environment server (sandboxed, over WebSocket and over HTTP), against a baseline of
 * the same environment served natively by a minimal python3 http.server in the same run.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import WebSocket from "ws";
import type { Catalog } from "../lib/envserver/catalog";
import { startEnvServer } from "../lib/envserver/start-server";
import { COUNTER_ENV, COUNTER_SOURCE } from "../lib/export/testing/fixture";
import { createSandboxRunner } from "../lib/sandbox";
import { percentile, round, writeResult } from "./bench-util";

const SESSIONS = 32;
const STEPS_PER_EPISODE = 10;
const DURATION_MS = Number(process.env.BENCH_SERVE_MS ?? 8000);
const CHECK = "def check_func(final_state):\n    return final_state['count'] == initial_state['count'] + 10\n";
const INIT = { count: 0, log: [] };
const catalog: Catalog = { name: "bench", scenarios: [{ id: "counter/c1", envId: "counter", taskId: "c1", task: "Add 1 ten times.", source: COUNTER_SOURCE, className: "Counter", tools: COUNTER_ENV.tools, initialState: INIT, checks: [CHECK] }] };

type Stepper = { reset(): Promise<void>; step(tool: string, args: object): Promise<{ reward: number | null }>; close(): void | Promise<void> };
type Run = { steps: number; latencies: number[]; rewards: number[] };

/** Every session plays episodes until the deadline, and at least `minEpisodes` each. */
async function drive(make: () => Promise<Stepper>, durationMs = DURATION_MS, minEpisodes = 0): Promise<Run & { stepsPerSecond: number; p50: number; p99: number }> {
  const run: Run = { steps: 0, latencies: [], rewards: [] };
  const deadline = performance.now() + durationMs;
  const start = performance.now();
  await Promise.all(Array.from({ length: SESSIONS }, async () => {
    const client = await make();
    for (let played = 0; played < minEpisodes || performance.now() < deadline; played++) {
      await client.reset();
      for (let i = 0; i < STEPS_PER_EPISODE; i++) {
        const t0 = performance.now();
        await client.step("add", { amount: 1 });
        run.latencies.push(performance.now() - t0);
        run.steps++;
      }
      run.rewards.push((await client.step("submit", {})).reward ?? -1);
    }
    await client.close();
  }));
  const seconds = (performance.now() - start) / 1000;
  const sorted = [...run.latencies].sort((a, b) => a - b);
  return { ...run, stepsPerSecond: round(run.steps / seconds), p50: round(percentile(sorted, 50), 2), p99: round(percentile(sorted, 99), 2) };
}

function httpClient(base: string, headers: Record<string, string>): Promise<Stepper> {
  let episode = "";
  let key = "";
  const post = async (p: string, body: object) => (await (await fetch(base + p, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) })).json()) as { reward: number | null; observation: { metadata: { episode_id: string; session_key?: string } } };
  return Promise.resolve({
    reset: async () => {
      const { metadata } = (await post("/reset", {})).observation;
      episode = metadata.episode_id;
      key = metadata.session_key ?? "";
    },
    step: (tool, args) => post("/step", { episode_id: episode, session_key: key, action: { tool_name: tool, arguments: args } }),
    close: () => undefined,
  });
}

/** Ends the session with OpenEnv's close message: the server answers by closing the socket once the
 * session's sandbox worker is released, so the next mode starts with every worker free. */
function closeWs(ws: WebSocket): Promise<void> {
  return new Promise((resolve) => {
    ws.once("close", () => resolve());
    ws.send(JSON.stringify({ type: "close" }));
  });
}

async function wsClient(url: string): Promise<Stepper> {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
  const ask = (msg: object) => new Promise<{ data: { reward: number | null } }>((resolve) => {
    ws.once("message", (d: Buffer) => resolve(JSON.parse(d.toString()) as { data: { reward: number | null } }));
    ws.send(JSON.stringify(msg));
  });
  return { reset: async () => void (await ask({ type: "reset", data: {} })), step: async (tool, args) => (await ask({ type: "step", data: { tool_name: tool, arguments: args } })).data, close: () => closeWs(ws) };
}

async function startBaseline(): Promise<{ port: number; child: ChildProcess }> {
  const config = path.join(mkdtempSync(path.join(tmpdir(), "bench-serve-")), "env.json");
  writeFileSync(config, JSON.stringify([COUNTER_SOURCE, "Counter", INIT, [CHECK]]));
  const child = spawn("python3", [path.join(import.meta.dirname, "baseline-server.py"), config], { stdio: ["ignore", "pipe", "inherit"] });
  const [line] = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next().then((r) => [r.value as string]);
  return { port: Number(line), child };
}

export async function main() {
  const sandbox = createSandboxRunner({ poolSize: SESSIONS });
  const server = await startEnvServer(catalog, sandbox, { port: 0, host: "127.0.0.1", token: "bench", maxSessions: SESSIONS * 2, sandboxWorkers: SESSIONS, maxSteps: 1000, idleMs: 60_000 });
  const base = `http://127.0.0.1:${server.port}`;
  // Warm-up (untimed): every session plays one episode so all sandbox workers have booted before
  // the clock starts (a 1 ms deadline alone played none, so the first timed mode paid for booting).
  await drive(() => wsClient(`ws://127.0.0.1:${server.port}/ws?token=bench`), 0, 1);
  const ws = await drive(() => wsClient(`ws://127.0.0.1:${server.port}/ws?token=bench`));
  const http = await drive(() => httpClient(base, { authorization: "Bearer bench" }));
  await server.stop();
  await sandbox.close();
  const baseline = await startBaseline();
  const native = await drive(() => httpClient(`http://127.0.0.1:${baseline.port}`, {}));
  baseline.child.kill();
  const allPassed = [...ws.rewards, ...http.rewards, ...native.rewards].every((r) => r === 1);
  writeResult("serve", {
    sessions: SESSIONS, backend: sandbox.backend === "bwrap" ? 1 : 0, rewardsAllOne: allPassed ? 1 : 0,
    wsStepsPerSecond: ws.stepsPerSecond, wsP50Ms: ws.p50, wsP99Ms: ws.p99,
    httpStepsPerSecond: http.stepsPerSecond, httpP50Ms: http.p50, httpP99Ms: http.p99,
    baselineStepsPerSecond: native.stepsPerSecond, baselineP50Ms: native.p50, baselineP99Ms: native.p99,
    wsVsBaseline: round(ws.stepsPerSecond / native.stepsPerSecond, 2),
  }, { note: "no fixed target; ratio against the native python3 baseline (no isolation) in the same run" });
}
