/**
 * The serve bench's load generator: N concurrent WebSocket sessions, each playing episodes of
 * reset + the scenario's gold tool calls + submit with OpenEnv's messages, for a fixed time.
 * The same client drives every server under test.
 */
import WebSocket from "ws";
import { percentile, round } from "./bench-util";

export type GoldCall = { name: string; arguments: Record<string, unknown> };
type Reply = { type: string; data: { reward?: number | null; done?: boolean; message?: string } };
export type LoadResult = {
  steps: number;
  stepsPerSecond: number;
  resetP50Ms: number;
  stepP50Ms: number;
  /** Client-side time of `submit` (the checks run on the final state). */
  submitP50Ms: number;
  episodes: number;
  episodesAtRewardOne: number;
  failures: string[];
};

class Session {
  private waiters: ((r: Reply) => void)[] = [];
  private constructor(private ws: WebSocket) {
    ws.on("message", (d: Buffer) => this.waiters.shift()?.(JSON.parse(d.toString()) as Reply));
    // A dropped connection answers every pending request with an error instead of hanging.
    ws.on("close", () =>
      this.waiters.splice(0).forEach((w) => w({ type: "error", data: { message: "connection closed" } })),
    );
  }

  static open(url: string): Promise<Session> {
    const ws = new WebSocket(url);
    return new Promise((resolve, reject) =>
      ws.once("open", () => resolve(new Session(ws))).once("error", reject),
    );
  }

  ask(msg: object): Promise<Reply> {
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.ws.send(JSON.stringify(msg));
    });
  }

  /** OpenEnv's close message; the server ends the session and closes the socket. */
  close(): Promise<void> {
    if (this.ws.readyState !== WebSocket.OPEN) return Promise.resolve();
    return new Promise((resolve) => {
      this.ws.once("close", () => resolve());
      this.ws.send(JSON.stringify({ type: "close" }));
      setTimeout(() => this.ws.terminate(), 5_000).unref();
    });
  }
}

/** One episode; returns the reset time and step times, or throws with what went wrong. */
async function episode(
  s: Session,
  gold: GoldCall[],
  stepTimes: number[],
  resetData: Record<string, unknown>,
): Promise<{ resetMs: number; submitMs: number; reward: number }> {
  const t0 = performance.now();
  const reset = await s.ask({ type: "reset", data: resetData });
  const resetMs = performance.now() - t0;
  if (reset.type !== "observation") throw new Error(`reset: ${reset.data.message ?? reset.type}`);
  for (const call of gold) {
    const t = performance.now();
    const r = await s.ask({ type: "step", data: { tool_name: call.name, arguments: call.arguments } });
    stepTimes.push(performance.now() - t);
    if (r.type !== "observation" || r.data.done)
      throw new Error(`step ${call.name}: ${r.data.message ?? JSON.stringify(r.data).slice(0, 200)}`);
  }
  const ts = performance.now();
  const submit = await s.ask({ type: "step", data: { tool_name: "submit", arguments: {} } });
  const submitMs = performance.now() - ts;
  if (submit.type !== "observation") throw new Error(`submit: ${submit.data.message ?? submit.type}`);
  return { resetMs, submitMs, reward: submit.data.reward ?? -1 };
}

/** Every session plays episodes until the deadline (at least `minEpisodes` each). Steps counted
 * are the gold tool calls (submit, which scores, and reset are not steps). */
export async function drive(
  url: string,
  gold: GoldCall[],
  sessions: number,
  durationMs: number,
  minEpisodes = 0,
  /** The reset message's data (e.g. `{diff: true}`: every step also carries its state diff). */
  resetData: Record<string, unknown> = {},
): Promise<LoadResult> {
  const resets: number[] = [];
  const submits: number[] = [];
  const stepTimes: number[] = [];
  const failures: string[] = [];
  let episodes = 0;
  let atOne = 0;
  // Sessions connect one after another before the clock starts. Opened all at once, a
  // multi-worker uvicorn peer takes every connection in one worker: the first worker to wake
  // accepts the whole backlog (asyncio accepts up to `backlog` pending connections per wake-up),
  // and the other workers idle. One at a time, the idle workers race for each connection.
  const opened: Session[] = [];
  for (let i = 0; i < sessions; i++) opened.push(await Session.open(url));
  const start = performance.now();
  const deadline = start + durationMs;
  await Promise.all(
    opened.map(async (s) => {
      for (let played = 0; played < minEpisodes || performance.now() < deadline; played++) {
        episodes += 1;
        try {
          const { resetMs, submitMs, reward } = await episode(s, gold, stepTimes, resetData);
          resets.push(resetMs);
          submits.push(submitMs);
          if (reward === 1) atOne += 1;
          else failures.push(`reward ${reward}`);
        } catch (e) {
          failures.push(e instanceof Error ? e.message : String(e));
          break; // a session whose episode failed stops: its socket may be gone
        }
      }
      await s.close();
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  return {
    steps: stepTimes.length,
    stepsPerSecond: round(stepTimes.length / seconds),
    resetP50Ms: round(percentile(sorted(resets), 50), 2),
    stepP50Ms: round(percentile(sorted(stepTimes), 50), 2),
    submitP50Ms: round(percentile(sorted(submits), 50), 2),
    episodes,
    episodesAtRewardOne: atOne,
    failures,
  };
}
