/** A small, fixed ExportInput for golden-file tests and the benchmark's generator. */
import { scenarioDifficulty } from "../../difficulty/estimators";
import { toExportDifficulty } from "../difficulty";
import type { ChatMessage } from "../../llm/llm.schema";
import type {
  ExportEnvironment,
  ExportInput,
  ExportNearMissStrength,
  ExportScenario,
} from "../export.schema";

export const COUNTER_SOURCE = `class Counter:
    def __init__(self, init_config=None):
        self.count = 0
        self.log = []

    def get_count(self) -> dict:
        """Return the counter."""
        return {"success": True, "data": self.count}

    def add(self, amount: int, note: str = "") -> dict:
        """Add to the counter.

        Args:
            amount: How much to add (may be negative).
            note: Optional note kept in the log.
        """
        self.count += amount
        self.log.append(note)
        return {"success": True, "data": self.count}
`;

export const COUNTER_ENV: ExportEnvironment = {
  envId: "counter",
  name: "Counter",
  description: "A counter that can be read and incremented.",
  domain: "testing",
  className: "Counter",
  source: COUNTER_SOURCE,
  sourceHash: "0".repeat(64),
  version: 2,
  tools: [
    {
      type: "function",
      function: {
        name: "get_count",
        description: "Return the counter.",
        parameters: { type: "object", properties: {}, required: [] },
      },
    },
    {
      type: "function",
      function: {
        name: "add",
        description: "Add to the counter.",
        parameters: {
          type: "object",
          properties: {
            amount: { type: "integer", description: "How much to add (may be negative)." },
            note: { type: "string", description: "Optional note kept in the log." },
          },
          required: ["amount"],
        },
      },
    },
  ],
  stateSchema: [
    { entity: "Counter", attributes: "count, log", description: "The count and a log of notes." },
  ],
  rules: ["The count is an integer."],
  operations: [
    { operation_name: "add", operation_description: "Add to the counter.", operation_type: "state_change" },
  ],
  metadata: { env_id: "counter" },
};

const CHECK = 'def check_func(final_state):\n    return final_state["count"] == initial_state["count"] + 3\n';

/** Stored the way a rollout stores it: the LLM domain's ChatMessage (camelCase tool calls). */
export const TRAJECTORY_MESSAGES: ChatMessage[] = [
  { role: "system", content: "You operate a counter." },
  { role: "user", content: "Add 3 to the counter and tell me the result." },
  {
    role: "assistant",
    content: null,
    reasoning: "I should add 3.",
    toolCalls: [{ id: "call_1", name: "add", arguments: '{"amount":3}' }],
  },
  { role: "tool", toolCallId: "call_1", content: '{"success":true,"data":4}' },
  { role: "assistant", content: "Task Completed" },
];

export function counterScenario(i: number, split: "TRAIN" | "TEST", withTrajectory = true): ExportScenario {
  return {
    envId: "counter",
    taskId: `counter-${String(i).padStart(2, "0")}`,
    split,
    task: `Add 3 to the counter (case ${i}) and report the new value.`,
    initialState: { count: i, log: [] },
    checklist: ["Is the count 3 higher?"],
    checks: [{ checkItem: "Is the count 3 higher?", code: CHECK, validatorVersion: 1 }],
    goldCalls: [{ name: "add", arguments: { amount: 3 } }],
    trajectories: withTrajectory
      ? [{ id: `t${i}`, model: "test-model", mode: "fc", reward: 1, messages: TRAJECTORY_MESSAGES }]
      : [],
    nearMissStrength: NEAR_MISS_STRENGTH[i % NEAR_MISS_STRENGTH.length],
  };
}

/** One strong, one weak (a near-miss passed) and one not measured, by scenario number. */
const NEAR_MISS_STRENGTH: (ExportNearMissStrength | null)[] = [
  null,
  { rejected: 2, total: 2, passed: [] },
  {
    rejected: 1,
    total: 2,
    passed: [
      {
        kind: "drop",
        description: "skips call 2 (add)",
        calls: [{ name: "add", arguments: { amount: 3 } }],
      },
    ],
  },
];

/** An async iterable over a list (what the DB stream looks like to the writers). */
export function iterate<T>(items: T[]): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]: () => {
      let i = 0;
      return {
        next: () =>
          Promise.resolve(
            i < items.length
              ? { value: items[i++] as T, done: false }
              : { value: undefined, done: true as const },
          ),
      };
    },
  };
}

export function fixtureInput(): ExportInput {
  return {
    dataset: {
      name: "golden",
      version: 1,
      description: "Golden-file fixture.",
      seed: 7,
      testRatio: 0.2,
      createdAt: "2026-01-01T00:00:00.000Z",
      stats: { scenarios: 3 },
      hasNearMissStrength: true,
    },
    environments: [COUNTER_ENV],
    scenarios: iterate([
      { ...counterScenario(1, "TRAIN"), difficulty: fixtureDifficulty({ a: [3, 4], b: [0, 4] }) },
      { ...counterScenario(2, "TRAIN"), difficulty: fixtureDifficulty({ a: [4, 4] }) },
      { ...counterScenario(3, "TEST"), difficulty: fixtureDifficulty({}) },
    ]),
    withDifficulty: true,
  };
}

/** Frozen figures as a dataset version stores them: model → [successes, n], binary rewards, k = 2, G = 8. */
export function fixtureDifficulty(models: Record<string, [number, number]>) {
  return toExportDifficulty(
    scenarioDifficulty(
      Object.fromEntries(
        Object.entries(models).map(([m, [c, n]]) => [
          m,
          { n, successes: c, rewardSum: c, rewardSquareSum: c },
        ]),
      ),
      { k: 2, groupSize: 8 },
    ),
  );
}
