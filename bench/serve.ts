/**
 * `npm run bench -- serve`: `envstudio serve` (Pyodide, the default, and bwrap) against a peer
 * that serves the same class natively with FastAPI + uvicorn, as an OpenEnv server does, run twice:
 * with one uvicorn worker (one process, held to one core by the GIL) and with one worker per core
 * (`uvicorn --workers N`, N = os.availableParallelism(), so the peer can use every core that
 * `envstudio serve` uses). library-lending-01: reset + 12 gold tool calls + submit, 32 concurrent
 * WebSocket sessions, one load generator (bench/serve-load.ts) for all, 5 interleaved rounds;
 * every ratio is taken per round against the peer of the same round, then the median. Two more
 * lanes ask envstudio serve for each step's state diff (`reset(diff=True)`, opt-in), which the
 * peer does not compute: what that feature costs. The MCP lane plays the same episodes on the
 * Pyodide server with diffs through /mcp (Streamable HTTP, one MCP session per episode; MCP
 * results always carry the diff) with the load generator's own MCP client, and is compared with
 * that server's WebSocket lane; a second MCP lane plays them with the official SDK's client, to
 * show that client's own cost. Two more lanes play upstream OpenEnv's own MCP (JSON-RPC on /mcp
 * keyed by session_id, as its MCPToolClient does) on the Pyodide server and on the one-worker
 * peer, which serves it as upstream's server does. Every HTTP lane's client writes and reads
 * HTTP/1.1 on kept-alive sockets (bench/http-client.ts), about as light per request as the
 * WebSocket client is per message; each lane's CPU per step (server, its main thread, the load
 * generator) is printed and recorded, so that what the clients cost stays in view.
 * Needs Debian's python3-fastapi and python3-uvicorn (not part of CI).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { round, writeResult } from "./bench-util";
import { childCpuSeconds, machineBusyCpuSeconds, mainThreadCpuSeconds, treePssBytes } from "./proc-memory";
import { type GoldCall, type LoadResult, type Player, drive } from "./serve-load";
import { openMcp, openSdkMcp } from "./serve-load-mcp";
import { openOpenEnvMcp } from "./serve-load-openenv-mcp";

const SESSIONS = Number(process.env.BENCH_SERVE_SESSIONS ?? 32);
const ROUNDS = Number(process.env.BENCH_SERVE_ROUNDS ?? 5);
const ISOLATED = process.env.BENCH_SERVE_ISOLATED === "1";
const DURATION_MS = Number(process.env.BENCH_SERVE_MS ?? 6000);
const WARM_MS = Number(process.env.BENCH_SERVE_WARM_MS ?? 8000);
const PEER_WORKERS = availableParallelism();
const PYTHON = "/usr/bin/python3"; // Debian's python3, where python3-fastapi installs
const ROOT = path.join(import.meta.dirname, "..");
const SAMPLE = path.join(ROOT, "prisma/seed/samples/library-lending");

type Server = { name: string; child: ChildProcess; url: string };
/** `workers`: the server's child processes are its workers (a multi-worker uvicorn), whose CPU
 * shares show how evenly the sessions spread. */
type Mode = {
  name: string;
  start: () => Promise<Server>;
  workers?: number;
  /** The reset's data: `{diff: true}` asks envstudio serve for each step's state diff. */
  resetData?: Record<string, unknown>;
  /** How the load generator plays (default: OpenEnv's WebSocket messages). */
  player?: { url: (wsUrl: string) => string; open: (url: string) => Promise<Player> };
};
const MCP_PLAYER = {
  url: (ws: string) => ws.replace(/^ws:/, "http:").replace(/\/ws$/, "/mcp"),
  open: openMcp,
};
/** The same MCP sessions played by the official TypeScript SDK's client. */
const SDK_MCP_PLAYER = { url: MCP_PLAYER.url, open: openSdkMcp };
/** Upstream OpenEnv's MCP JSON-RPC on /mcp, as its MCPToolClient sends it (both servers speak it). */
const OPENENV_MCP_PLAYER = { url: MCP_PLAYER.url, open: openOpenEnvMcp };
const driveMode = (mode: Mode, server: Server, gold: GoldCall[], sessions: number, ms: number, min = 0) =>
  mode.player
    ? drive(mode.player.url(server.url), gold, sessions, ms, min, {}, mode.player.open)
    : drive(server.url, gold, sessions, ms, min, mode.resetData);

export function scenarioFile(): { file: string; gold: GoldCall[] } {
  const meta = JSON.parse(readFileSync(path.join(SAMPLE, "meta.json"), "utf8")) as { env_class_name: string };
  const [first] = JSON.parse(readFileSync(path.join(SAMPLE, "scenarios.json"), "utf8")) as {
    task: string;
    init_config: Record<string, unknown>;
    checklist_with_func: { check_func: string }[];
    gold_calls: GoldCall[];
  }[];
  if (!first) throw new Error("library-lending has no scenario");
  const source = readFileSync(path.join(SAMPLE, "environment.py"), "utf8");
  const file = path.join(mkdtempSync(path.join(tmpdir(), "bench-serve-")), "scenario.json");
  writeFileSync(
    file,
    JSON.stringify([
      source,
      meta.env_class_name,
      first.init_config,
      first.checklist_with_func.map((c) => c.check_func),
      first.task,
    ]),
  );
  return { file, gold: first.gold_calls };
}

/** Spawns a server that prints its port (a bare number or {"port"}) as its first stdout line. */
async function startChild(
  name: string,
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<Server> {
  const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "inherit"] });
  const first = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
  if (first.done) throw new Error(`${name} exited before listening`);
  const line = String(first.value);
  const port = line.startsWith("{") ? (JSON.parse(line) as { port: number }).port : Number(line);
  return { name, child, url: `ws://127.0.0.1:${port}/ws` };
}

function peerAvailable(): boolean {
  const probe = spawnSync(PYTHON, ["-c", "import fastapi, uvicorn"], { encoding: "utf8" });
  if (probe.status === 0) return true;
  process.stderr.write(
    `serve bench: the FastAPI + uvicorn peer needs Debian's packages python3-fastapi and python3-uvicorn for ${PYTHON}:\n  apt-get install -y python3-fastapi python3-uvicorn\n${probe.stderr ?? ""}`,
  );
  return false;
}

type Tally = {
  runs: LoadResult[];
  memoryMiB: number[];
  /** Per run: the busiest worker's share of the workers' CPU time (multi-worker modes only). */
  busiestWorkerShare: number[];
  soloResetP50Ms: number;
  untimedFailures: number;
  /** Per run, CPU ms per step: the machine's busy time less the load generator's (the server's
   * share), the server's main thread, the load generator (this process: the clients, and the
   * memory sampling of the server's processes). */
  serverCpuMs: number[];
  serverMainCpuMs: number[];
  loadGenCpuMs: number[];
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** Of the CPU time the children of `pid` used between two readings, the busiest one's share
 * (1/N when N uvicorn workers share the sessions evenly, 1 when one worker has them all). */
function busiestShare(before: Map<string, number>, after: Map<string, number>): number {
  const used = [...after].map(([pid, s]) => s - (before.get(pid) ?? 0));
  const total = used.reduce((a, b) => a + b, 0);
  return total > 0 ? round(Math.max(...used) / total, 2) : 0;
}

/** One timed run of a mode; memory is the server's process tree (PSS) sampled during the run. */
async function timedRun(server: Server, mode: Mode, gold: GoldCall[], tally: Tally) {
  const label = `${server.name}${mode.resetData?.diff ? ", with step diffs" : ""}`;
  const cpuBefore = childCpuSeconds(server.child.pid ?? 0);
  const mainBefore = mainThreadCpuSeconds(server.child.pid ?? 0);
  const machineBefore = machineBusyCpuSeconds();
  const loadGenBefore = process.cpuUsage();
  let peak = 0;
  const sample = () => (peak = Math.max(peak, treePssBytes(server.child.pid ?? 0)));
  const timer = setInterval(sample, 500);
  const result = await driveMode(mode, server, gold, SESSIONS, DURATION_MS);
  clearInterval(timer);
  const loadGen = process.cpuUsage(loadGenBefore);
  const loadGenSeconds = (loadGen.user + loadGen.system) / 1e6;
  const perStep = (seconds: number) => round((seconds * 1000) / Math.max(result.steps, 1), 3);
  tally.serverCpuMs.push(perStep(machineBusyCpuSeconds() - machineBefore - loadGenSeconds));
  tally.serverMainCpuMs.push(perStep(mainThreadCpuSeconds(server.child.pid ?? 0) - mainBefore));
  tally.loadGenCpuMs.push(perStep(loadGenSeconds));
  sample();
  if (mode.workers)
    tally.busiestWorkerShare.push(busiestShare(cpuBefore, childCpuSeconds(server.child.pid ?? 0)));
  tally.runs.push(result);
  tally.memoryMiB.push(round(peak / 1024 / 1024));
  console.log(
    `  ${label}: ${result.stepsPerSecond} steps/s, reset p50 ${result.resetP50Ms} ms, submit p50 ${result.submitP50Ms} ms, ${result.episodesAtRewardOne}/${result.episodes} episodes at reward 1, ${round(peak / 1024 / 1024)} MiB, CPU per step: server ${tally.serverCpuMs.at(-1)} ms (main thread ${tally.serverMainCpuMs.at(-1)}), load generator ${tally.loadGenCpuMs.at(-1)} ms${mode.workers ? `, busiest worker ${tally.busiestWorkerShare.at(-1)} of the workers' CPU` : ""}${result.failures.length ? `; failures: ${[...new Set(result.failures)].slice(0, 3).join(" | ")}` : ""}`,
  );
}

export async function main() {
  if (!peerAvailable()) process.exit(2);
  const { file, gold } = scenarioFile();
  const node = (backend: string, isolated = false) =>
    startChild(
      `envstudio serve ${backend}${isolated ? ", an interpreter per episode" : ""}`,
      process.execPath,
      ["--import", "tsx", "bench/serve-child.ts", file],
      {
        ...process.env,
        SANDBOX_BACKEND: backend,
        SANDBOX_POOL_SIZE: String(SESSIONS),
        // Episodes never share an interpreter, side by side or one after another.
        ...(isolated ? { SANDBOX_WORKERS_PER_SOURCE: "0", SANDBOX_MAX_EPISODES_PER_WORKER: "1" } : {}),
      },
    );
  const peer = (workers: number) =>
    startChild(
      `peer uvicorn ${workers} worker${workers === 1 ? "" : "s"}`,
      PYTHON,
      [path.join(import.meta.dirname, "serve-peer.py"), file, String(workers)],
      { ...process.env },
    );
  const servers = new Map<string, Server>();
  const modes: Mode[] = [
    { name: "peer1", start: () => peer(1) },
    { name: "peerN", start: () => peer(PEER_WORKERS), workers: PEER_WORKERS },
    { name: "pyodide", start: () => node("pyodide") },
    { name: "bwrap", start: () => node("bwrap") },
    // What the opt-in per-step state diffs cost (the peer has no such feature).
    { name: "pyodideDiffs", start: () => node("pyodide"), resetData: { diff: true } },
    // The same Pyodide server with diffs, played through MCP instead of the WebSocket.
    {
      name: "pyodideMcp",
      start: () => Promise.resolve({ ...servers.get("pyodideDiffs")!, name: "envstudio serve pyodide, MCP" }),
      player: MCP_PLAYER,
    },
    {
      name: "pyodideMcpSdk",
      start: () =>
        Promise.resolve({
          ...servers.get("pyodideDiffs")!,
          name: "envstudio serve pyodide, MCP, SDK client",
        }),
      player: SDK_MCP_PLAYER,
    },
    { name: "bwrapDiffs", start: () => node("bwrap"), resetData: { diff: true } },
    // Upstream OpenEnv's MCP (JSON-RPC on /mcp with a session_id, as its MCPToolClient plays it)
    // on the peer and on the Pyodide server. Upstream keeps sessions in the worker process that
    // created them, so only the one-worker peer can serve HTTP-keyed sessions.
    {
      name: "peer1OpenEnvMcp",
      start: () => Promise.resolve({ ...servers.get("peer1")!, name: "peer uvicorn 1 worker, OpenEnv MCP" }),
      player: OPENENV_MCP_PLAYER,
    },
    {
      name: "pyodideOpenEnvMcp",
      start: () =>
        Promise.resolve({ ...servers.get("pyodide")!, name: "envstudio serve pyodide, OpenEnv MCP" }),
      player: OPENENV_MCP_PLAYER,
    },
    // What full isolation costs (docs/sandbox.md): BENCH_SERVE_ISOLATED=1 adds these lanes.
    ...(ISOLATED
      ? [
          { name: "pyodideIsolated", start: () => node("pyodide", true) },
          { name: "bwrapIsolated", start: () => node("bwrap", true) },
        ]
      : []),
  ];
  const tallies = new Map<string, Tally>(
    modes.map((m) => [
      m.name,
      {
        runs: [],
        memoryMiB: [],
        busiestWorkerShare: [],
        soloResetP50Ms: 0,
        untimedFailures: 0,
        serverCpuMs: [],
        serverMainCpuMs: [],
        loadGenCpuMs: [],
      },
    ]),
  );
  const load = [loadavg()[0] ?? 0];
  try {
    for (const mode of modes) {
      const server = await mode.start();
      servers.set(mode.name, server);
      // Untimed warm-up: every session plays episodes for a while, so every sandbox worker and
      // every uvicorn worker has booted and V8 has finished optimizing the hot wasm code (Pyodide
      // steps run many times slower for the first seconds of fresh workers).
      const warm = await driveMode(mode, server, gold, SESSIONS, WARM_MS, 1);
      // Warm reset alone: one session, so the figure is the reset itself, not queueing behind
      // 31 other sessions' steps on 2 cores.
      const solo = await driveMode(mode, server, gold, 1, 2000);
      Object.assign(tallies.get(mode.name)!, {
        soloResetP50Ms: solo.resetP50Ms,
        untimedFailures: warm.failures.length + solo.failures.length,
      });
      console.log(
        `warm-up ${server.name}${mode.resetData?.diff ? ", with step diffs" : ""}: ${warm.episodesAtRewardOne}/${warm.episodes} episodes at reward 1; one session alone: reset p50 ${solo.resetP50Ms} ms`,
      );
    }
    for (let r = 0; r < ROUNDS; r++) {
      console.log(`round ${r + 1}/${ROUNDS}`);
      // Rotated order, so no mode always runs right after the same other mode.
      for (let i = 0; i < modes.length; i++) {
        const mode = modes[(i + r) % modes.length]!;
        await timedRun(servers.get(mode.name)!, mode, gold, tallies.get(mode.name)!);
      }
      load.push(loadavg()[0] ?? 0);
    }
  } finally {
    for (const s of new Set([...servers.values()].map((x) => x.child))) s.kill("SIGTERM");
  }
  report(tallies, load);
}

/** Median over rounds of `mode`'s steps/s divided by `peer`'s in the same round; prints each round's. */
function ratioPerRound(label: string, mode: Tally, peer: Tally): number {
  const ratios = mode.runs.map((x, i) => round(x.stepsPerSecond / (peer.runs[i]?.stepsPerSecond || 1), 2));
  console.log(`${label} per round: ${ratios.join(", ")}`);
  return median(ratios);
}

function report(tallies: Map<string, Tally>, load: number[]) {
  const metrics: Record<string, number> = {
    sessions: SESSIONS,
    rounds: ROUNDS,
    secondsPerRun: DURATION_MS / 1000,
    peerNWorkers: PEER_WORKERS,
    loadAvg1mMax: round(Math.max(...load), 2),
  };
  const failed: string[] = [];
  for (const [name, t] of tallies) {
    const episodes = t.runs.reduce((n, x) => n + x.episodes, 0);
    const atOne = t.runs.reduce((n, x) => n + x.episodesAtRewardOne, 0);
    if (atOne !== episodes || t.untimedFailures > 0) failed.push(name);
    Object.assign(metrics, {
      [`${name}StepsPerSecond`]: median(t.runs.map((x) => x.stepsPerSecond)),
      [`${name}ResetP50Ms`]: median(t.runs.map((x) => x.resetP50Ms)),
      [`${name}ResetP50MsOneSession`]: t.soloResetP50Ms,
      [`${name}StepP50Ms`]: median(t.runs.map((x) => x.stepP50Ms)),
      [`${name}SubmitP50Ms`]: median(t.runs.map((x) => x.submitP50Ms)),
      [`${name}MemoryMiB`]: median(t.memoryMiB),
      [`${name}ServerCpuMsPerStep`]: median(t.serverCpuMs),
      [`${name}ServerMainThreadCpuMsPerStep`]: median(t.serverMainCpuMs),
      [`${name}LoadGenCpuMsPerStep`]: median(t.loadGenCpuMs),
      [`${name}Episodes`]: episodes,
      [`${name}EpisodesAtRewardOne`]: atOne,
    });
  }
  const [peer1, peerN] = [tallies.get("peer1")!, tallies.get("peerN")!];
  metrics.peerNVsPeer1 = ratioPerRound("peerN / peer1", peerN, peer1);
  metrics.peerNBusiestWorkerCpuShare = median(peerN.busiestWorkerShare);
  for (const name of [
    "pyodide",
    "bwrap",
    "pyodideDiffs",
    "bwrapDiffs",
    ...(ISOLATED ? ["pyodideIsolated", "bwrapIsolated"] : []),
  ]) {
    metrics[`${name}VsPeer1`] = ratioPerRound(`${name} / peer1`, tallies.get(name)!, peer1);
    metrics[`${name}VsPeerN`] = ratioPerRound(`${name} / peerN`, tallies.get(name)!, peerN);
  }
  metrics.pyodideMcpVsPyodide = ratioPerRound(
    "pyodide MCP / pyodide WebSocket, both with diffs",
    tallies.get("pyodideMcp")!,
    tallies.get("pyodideDiffs")!,
  );
  metrics.pyodideMcpSdkVsPyodide = ratioPerRound(
    "pyodide MCP with the SDK's client / pyodide WebSocket, both with diffs",
    tallies.get("pyodideMcpSdk")!,
    tallies.get("pyodideDiffs")!,
  );
  metrics.pyodideOpenEnvMcpVsPeer1OpenEnvMcp = ratioPerRound(
    "pyodide / peer1, both through upstream OpenEnv's MCP JSON-RPC",
    tallies.get("pyodideOpenEnvMcp")!,
    tallies.get("peer1OpenEnvMcp")!,
  );
  metrics.pyodideOpenEnvMcpVsPyodide = ratioPerRound(
    "pyodide OpenEnv MCP / pyodide WebSocket",
    tallies.get("pyodideOpenEnvMcp")!,
    tallies.get("pyodide")!,
  );
  writeResult("serve", metrics, {
    pyodideMcpVsPyodide:
      ">= 0.67 (MCP within 1.5× of the WebSocket path: steps/s, same server, same episodes)",
    pyodideVsPeerN: `>= 1 (steps/s against the ${PEER_WORKERS}-worker peer at ${SESSIONS} sessions; median of per-round ratios)`,
    bwrapVsPeerN: `>= 1.5 (against the ${PEER_WORKERS}-worker peer at ${SESSIONS} sessions)`,
    pyodideResetP50MsOneSession: "<= 10 (warm reset)",
    bwrapResetP50MsOneSession: "<= 10 (warm reset)",
    episodes: "every episode of every mode at reward 1",
    note: `figures are medians over ${ROUNDS} interleaved rounds; memory is the server process tree's PSS; peer1 is uvicorn with 1 worker, peerN with ${PEER_WORKERS}`,
  });
  if (failed.length) {
    process.stderr.write(`serve bench FAILED: episodes failed in ${failed.join(", ")}\n`);
    process.exitCode = 1;
  }
}
