// Long mixed batches: several large classes (≥150 KB of source each) alternating, a few calls per
// episode, as `envstudio env replay` runs them. A large `load` arrives on the slot socket in
// several chunks; a race between the host forwarding the first chunk and the worker reading the
// rest itself once split such lines, and the episode stalled ~10 s and was lost. Every episode
// must complete and match native python3.
import { afterAll, describe, expect, it } from "vitest";
import { largeEnvironmentSource } from "../fixtures";
import { createSandboxRunner } from "../index";
import { type ReplayResult, replayEpisodes } from "../replay";
import type { ReplayEpisode } from "../sandbox.schema";
import { createUnsandboxedNativeRunner } from "../testing";

const CLASSES = Array.from({ length: 4 }, (_, k) => largeEnvironmentSource(k, 155_000));
const EPISODES: ReplayEpisode[] = Array.from({ length: 28 }, (_, e) => {
  const env = CLASSES[e % CLASSES.length]!;
  return {
    id: e,
    source: env.source,
    class_name: env.className,
    init: { items: { seed: { value: e } } },
    calls: [
      { name: "tool_1", arguments: { key: "a", value: e } },
      { name: `tool_${(e * 37) % env.tools}`, arguments: { key: "b" } },
      { name: "tool_2", arguments: { key: "" } },
    ],
    checks: ["def check_func(final_state):\n    return final_state['items']['a']['value'] >= 0"],
  };
});

const pyodide = createSandboxRunner({ backend: "pyodide", hostInBwrap: "off", poolSize: 2, spareWorkers: 1 });
const native = createUnsandboxedNativeRunner({ spareWorkers: 0 });
afterAll(() => Promise.all([pyodide.close(), native.close()]));

function lines(): AsyncIterable<string> {
  return (async function* () {
    for (const episode of EPISODES) yield await Promise.resolve(JSON.stringify(episode));
  })();
}

async function collect(results: AsyncIterable<ReplayResult>): Promise<ReplayResult[]> {
  const out: ReplayResult[] = [];
  for await (const r of results) out.push(r);
  return out;
}

describe("long batch of large classes", () => {
  it("sources are real-size", () => {
    for (const env of CLASSES) expect(env.source.length).toBeGreaterThanOrEqual(150_000);
  });

  it("replays every episode on Pyodide exactly as native python3 does", { timeout: 600_000 }, async () => {
    const [sandboxed, reference] = await Promise.all([
      collect(replayEpisodes(pyodide, lines(), 2)),
      collect(replayEpisodes(native, lines(), 2)),
    ]);
    expect(sandboxed.filter((r) => r.error)).toEqual([]);
    expect(reference.filter((r) => r.error)).toEqual([]);
    expect(sandboxed).toHaveLength(EPISODES.length);
    expect(sandboxed).toEqual(reference);
  });
});
