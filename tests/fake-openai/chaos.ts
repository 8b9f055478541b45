/**
 * TEST ONLY. Fault injection over a healthy script, like a bad day at an OpenAI-compatible
 * endpoint: a share of requests (seeded) gets a 429 with Retry-After, a 500, a hang (client
 * timeout), truncated JSON, a reply of the wrong shape, or code that does not parse — the kinds in
 * turn, so six faults are sure to cover them all. `force` injects a given fault into chosen
 * requests every time, or spares them ("none": a request a test needs to get through, whatever
 * order the concurrent requests arrive in). Counts what it injected.
 */
import type { ChatBody, FakeReply, Script } from "./server";
import { stageOf } from "./server";

export const FAULT_KINDS = [
  "rate_limited",
  "server_error",
  "timeout",
  "truncated_json",
  "wrong_shape",
  "garbage_code",
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** mulberry32: a tiny seeded PRNG. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CODE_STAGES = new Set(["state_code", "methods"]);

function truncate(reply: FakeReply): FakeReply {
  if ("toolCalls" in reply && reply.toolCalls?.length) {
    return {
      toolCalls: reply.toolCalls.map((c) => ({
        name: c.name,
        arguments: JSON.stringify(c.arguments).slice(0, 12),
      })),
    };
  }
  const content = "content" in reply && typeof reply.content === "string" ? reply.content : "{}";
  return { content: content.slice(0, Math.max(1, Math.floor(content.length / 2))) };
}

function garbageCode(body: ChatBody, stage: string | null): FakeReply {
  if (stage === "state_code")
    return {
      content:
        '{"class_name": "Broken"}\n```python\nclass Broken(:\n    def __init__(self)\n        pass\n```',
    };
  const name = /^name: (\w+)$/m.exec(body.messages.at(-1)?.content ?? "")?.[1] ?? "broken";
  return { content: `# Code\n\`\`\`python\ndef ${name}(self, x:\n    return {{\n\`\`\`` };
}

/** The fault reply of a kind for this request (parse faults are built from the healthy reply). */
export async function faultReply(
  kind: FaultKind,
  body: ChatBody,
  healthy: () => FakeReply | Promise<FakeReply>,
): Promise<FakeReply> {
  const stage = stageOf(body);
  switch (kind) {
    case "rate_limited":
      return { status: 429, headers: { "retry-after-ms": "30", "retry-after": "1" }, message: "slow down" };
    case "server_error":
      return { status: 500, message: "upstream exploded" };
    case "timeout":
      return { hang: true };
    case "truncated_json":
      return truncate(await healthy());
    case "garbage_code":
      if (CODE_STAGES.has(stage ?? "")) return garbageCode(body, stage);
      return stage === "tester"
        ? { toolCalls: [{ name: "propose_test_call", arguments: { nonsense: true } }] }
        : { content: JSON.stringify({ unexpected: "shape" }) };
    case "wrong_shape":
      return stage === "tester"
        ? { toolCalls: [{ name: "propose_test_call", arguments: { nonsense: true } }] }
        : { content: JSON.stringify({ unexpected: "shape" }) };
  }
}

export type Chaos = { script: Script; injected: Record<FaultKind, number>; setRate(rate: number): void };

export function withChaos(
  healthy: Script,
  opts: {
    rate: number;
    seed: number;
    force?: (body: ChatBody, stage: string | null) => FaultKind | "none" | null;
  },
): Chaos {
  const random = seeded(opts.seed);
  const injected = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
  let rate = opts.rate;
  let next = 0;
  const script: Script = async (body, index) => {
    const forced = opts.force?.(body, stageOf(body)) ?? null;
    const roll = random();
    const kind =
      forced === "none" ? null : (forced ?? (roll < rate ? FAULT_KINDS[next++ % FAULT_KINDS.length]! : null));
    if (!kind) return healthy(body, index);
    injected[kind] += 1;
    return faultReply(kind, body, () => healthy(body, index));
  };
  return { script, injected, setRate: (r) => void (rate = r) };
}
