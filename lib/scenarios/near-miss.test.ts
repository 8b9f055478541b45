import { describe, expect, it } from "vitest";
import { loadSamples } from "@/prisma/seed/load-samples";
import type { Tool } from "../sandbox";
import { NEAR_MISS_CAP, deriveNearMisses, nearMissCalls, siblingId } from "./near-miss";
import type { GoldCall } from "./scenario.schema";

const tool = (name: string, properties: Record<string, unknown> = {}): Tool => ({
  type: "function",
  function: { name, description: name, parameters: { type: "object", properties, required: [] } },
});

const TOOLS = [
  tool("get_member", { member_id: { type: "string" } }),
  tool("set_tier", {
    member_id: { type: "string" },
    tier: { type: "string", enum: ["basic", "premium", "gold"] },
  }),
  tool("pay", {
    member_id: { type: "string" },
    amount: { type: "number", maximum: 20 },
    urgent: { type: "boolean" },
  }),
  tool("note", { text: { type: "string" } }),
];
const STATE = {
  members: { M1: { tier: "basic" }, M2: { tier: "gold" } },
  loans: [{ loan_id: "L1" }, { loan_id: "L2" }],
};
const CALLS: GoldCall[] = [
  { name: "get_member", arguments: { member_id: "M1" } },
  { name: "set_tier", arguments: { member_id: "M1", tier: "premium" } },
  { name: "pay", arguments: { member_id: "M1", amount: 20, urgent: false } },
  { name: "note", arguments: { text: "called back" } },
];
const input = (over: Partial<Parameters<typeof deriveNearMisses>[0]> = {}) => ({
  calls: CALLS,
  stateChanging: [1, 2, 3],
  tools: TOOLS,
  initialState: STATE,
  task: "Upgrade M1 to premium and settle the fine.",
  ...over,
});

describe("near-miss derivation", () => {
  it("drops each state-changing call, stops early before each later one, then changes one argument at a time, within the cap", () => {
    const found = deriveNearMisses(input());
    expect(found.map((n) => n.description)).toEqual([
      "skips call 2 (set_tier)",
      "skips call 3 (pay)",
      "skips call 4 (note)",
      "stops after call 2 of 4, before pay",
      // stopping before call 4 equals skipping call 4: kept once
      'call 2 (set_tier) with member_id="M2" instead of "M1"',
      'call 2 (set_tier) with tier="gold" instead of "premium"',
      "call 3 (pay) with amount=19 instead of 20",
      'call 3 (pay) with member_id="M2" instead of "M1"',
      // urgent=true is the ninth: past the cap (drops, stops and changes taken in turn)
      // "called back" is free text the task does not state: the solver's choice, left alone
    ]);
    const change = found.find((n) => n.kind === "change_argument" && n.argument === "tier")!;
    expect(nearMissCalls(CALLS, change)[1]).toEqual({
      name: "set_tier",
      arguments: { member_id: "M1", tier: "gold" },
    });
    expect(nearMissCalls(CALLS, found[0]!).map((c) => c.name)).toEqual(["get_member", "pay", "note"]);
    expect(nearMissCalls(CALLS, found[3]!).map((c) => c.name)).toEqual(["get_member", "set_tier"]);
  });

  it("never touches read-only calls, and is deterministic", () => {
    const found = deriveNearMisses(input());
    expect(found.some((n) => n.callIndex === 0)).toBe(false);
    expect(deriveNearMisses(input())).toEqual(found);
  });

  it("changes a task-stated string, and finds sibling ids in keyed objects and in record lists", () => {
    const found = deriveNearMisses(
      input({
        calls: [{ name: "note", arguments: { text: "settle the fine" } }],
        stateChanging: [0],
      }),
    );
    expect(found.map((n) => n.kind === "change_argument" && n.to)).toContain("settle the fine (altered)");
    expect(siblingId("M2", STATE)).toBe("M1");
    expect(siblingId("L1", STATE)).toBe("L2");
    expect(siblingId("constructor", STATE)).toBeUndefined();
    expect(siblingId("nope", STATE)).toBeUndefined();
  });

  it("derives nothing from no gold calls or no state-changing ones, and ignores bad indices", () => {
    expect(deriveNearMisses(input({ calls: [], stateChanging: [] }))).toEqual([]);
    expect(deriveNearMisses(input({ stateChanging: [] }))).toEqual([]);
    expect(deriveNearMisses(input({ stateChanging: [-1, 99] }))).toEqual([]);
  });

  it("stays within the cap on a long gold sequence, with every kind represented", () => {
    const calls = Array.from({ length: 30 }, (_, i) => ({
      name: "pay",
      arguments: { member_id: "M1", amount: i, urgent: false },
    }));
    const found = deriveNearMisses(input({ calls, stateChanging: calls.map((_, i) => i) }));
    expect(found).toHaveLength(NEAR_MISS_CAP);
    expect(found.map((n) => n.kind)).toEqual([
      "drop",
      "drop",
      "drop",
      "stop_early",
      "stop_early",
      "stop_early",
      "change_argument",
      "change_argument",
    ]);
    expect(found.map((n) => n.callIndex)).toEqual([0, 1, 2, 1, 2, 3, 0, 0]);
  });

  it("derives near-misses for every seeded sample scenario within the cap", () => {
    for (const sample of loadSamples())
      for (const s of sample.scenarios) {
        const calls = s.gold_calls ?? [];
        const found = deriveNearMisses({
          calls,
          stateChanging: calls.map((_, i) => i),
          tools: [],
          initialState: s.init_config,
          task: s.task,
        });
        expect(found.length, `${sample.slug}`).toBeGreaterThan(0);
        expect(found.length).toBeLessThanOrEqual(NEAR_MISS_CAP);
      }
  });
});
