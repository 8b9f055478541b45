/**
 * Near-miss trajectories (pure): from a scenario's gold calls, tool-call sequences that come close
 * to the solution but should not earn full reward. Running them (near-miss-proof.ts) measures how
 * strong the checks are: a checklist that gives reward 1 to a trajectory that skipped a change, or
 * made it on the wrong record, rewards a wrong solution. Three kinds, in this order:
 *  - drop: the gold calls without one state-changing call (one near-miss per such call);
 *  - stop_early: the gold calls up to (not including) a later state-changing call;
 *  - change_argument: one argument of a state-changing call set to another valid value — the next
 *    enum value of its schema, another id of the same collection in the initial state, the other
 *    boolean, the number plus one (minus one past a schema maximum), or, for a string the task
 *    states verbatim, that string altered. A free-text value the task does not state (a note, a
 *    reason) is the solver's choice, so changing it is not a near-miss; arrays, objects and null
 *    are left alone.
 * State-changing calls are the gold calls whose replay changed the state (the proof records them),
 * so read-only calls are never dropped or changed. Sequences equal to the gold or to an earlier
 * near-miss are skipped. At most NEAR_MISS_CAP near-misses per scenario: one of each kind in turn
 * (earliest calls first within a kind), listed in the order above. The cap keeps a proof's sandbox
 * work small (every proof measures strength, the start-up proofs of the samples included).
 */
import { z } from "zod";
import type { JsonObject, Tool } from "../sandbox/sandbox.schema";
import type { GoldCall, NearMiss } from "./scenario.schema";

/** Bounds the proof's sandbox work: one episode per near-miss, replaying at most the gold calls. */
export const NEAR_MISS_CAP = 8;

export type NearMissInput = {
  calls: GoldCall[];
  /** Indices of the gold calls whose replay changed the state. */
  stateChanging: number[];
  tools: Tool[];
  initialState: JsonObject;
  task: string;
};

const canonical = (calls: GoldCall[]) => JSON.stringify(calls.map((c) => [c.name, sortKeys(c.arguments)]));

/** JSON with object keys sorted: equal values give equal text. */
export const canonicalJson = (value: unknown) => JSON.stringify(sortKeys(value));

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  return value;
}

const show = (v: unknown) => JSON.stringify(v);

/** The calls a near-miss replays, rebuilt from the gold calls (a stored near-miss keeps only its edit). */
export function nearMissCalls(gold: GoldCall[], nearMiss: NearMiss): GoldCall[] {
  switch (nearMiss.kind) {
    case "drop":
      return gold.filter((_, i) => i !== nearMiss.callIndex);
    case "stop_early":
      return gold.slice(0, nearMiss.callIndex);
    case "change_argument":
      return gold.map((c, i) =>
        i === nearMiss.callIndex
          ? { ...c, arguments: { ...c.arguments, [nearMiss.argument]: nearMiss.to } }
          : c,
      );
  }
}

/** Every near-miss of the gold calls, deterministic and at most NEAR_MISS_CAP. */
export function deriveNearMisses(input: NearMissInput): NearMiss[] {
  const changing = [...new Set(input.stateChanging)]
    .filter((i) => i >= 0 && i < input.calls.length)
    .sort((a, b) => a - b);
  const kinds: NearMiss[][] = [
    changing.map((i): NearMiss => ({
      kind: "drop",
      callIndex: i,
      description: `skips call ${i + 1} (${input.calls[i]!.name})`,
    })),
    changing.slice(1).map((i): NearMiss => ({
      kind: "stop_early",
      callIndex: i,
      description: `stops after call ${i} of ${input.calls.length}, before ${input.calls[i]!.name}`,
    })),
    changing.flatMap((i) => argumentChanges(input, i)),
  ];
  // Distinct sequences only: one equal to the gold or to an earlier candidate is the same evidence.
  const seen = new Set([canonical(input.calls)]);
  const distinct = kinds.map((list) =>
    list.filter((candidate) => {
      const key = canonical(nearMissCalls(input.calls, candidate));
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    }),
  );
  // Taken one of each kind in turn, so a long gold sequence still gets every kind within the cap.
  const taken = distinct.map(() => 0);
  let total = 0;
  for (let progress = true; progress && total < NEAR_MISS_CAP;) {
    progress = false;
    distinct.forEach((list, k) => {
      if (total < NEAR_MISS_CAP && taken[k]! < list.length) {
        taken[k]!++;
        total++;
        progress = true;
      }
    });
  }
  return distinct.flatMap((list, k) => list.slice(0, taken[k]));
}

function argumentChanges(input: NearMissInput, index: number): NearMiss[] {
  const call = input.calls[index]!;
  const tool = input.tools.find((t) => t.function.name === call.name);
  const properties = tool?.function.parameters.properties ?? {};
  return Object.keys(call.arguments)
    .sort()
    .flatMap((argument) => {
      const from = call.arguments[argument];
      const to = alternativeValue(from, properties[argument], input);
      if (to === undefined) return [];
      return [
        {
          kind: "change_argument" as const,
          callIndex: index,
          argument,
          from,
          to,
          description: `call ${index + 1} (${call.name}) with ${argument}=${show(to)} instead of ${show(from)}`,
        },
      ];
    });
}

/** The parts of a parameter's JSON schema that name other valid values; anything else reads as {}. */
const PropertySchema = z
  .object({
    enum: z.array(z.unknown()).optional(),
    maximum: z.number().optional(),
    anyOf: z.array(z.unknown()).optional(),
  })
  .catch({});
type PropertySchema = z.infer<typeof PropertySchema>;

const schemaOf = (raw: unknown): PropertySchema => PropertySchema.parse(raw);

/** Another valid value for an argument, or undefined when there is none worth trying. */
function alternativeValue(from: unknown, rawSchema: unknown, input: NearMissInput): unknown {
  const schema = schemaOf(rawSchema);
  const enumValues = schema.enum ?? enumOfAnyOf(schema);
  if (enumValues && enumValues.length > 1) {
    const at = enumValues.findIndex((v) => v === from);
    if (at >= 0) return enumValues[(at + 1) % enumValues.length];
  }
  if (typeof from === "boolean") return !from;
  if (typeof from === "number") {
    const up = from + 1;
    return typeof schema.maximum === "number" && up > schema.maximum ? from - 1 : up;
  }
  if (typeof from === "string") {
    const sibling = siblingId(from, input.initialState);
    if (sibling !== undefined) return sibling;
    if (from.length > 0 && input.task.toLowerCase().includes(from.toLowerCase())) return `${from} (altered)`;
  }
  return undefined;
}

function enumOfAnyOf(schema: PropertySchema): unknown[] | undefined {
  const values = (schema.anyOf ?? []).flatMap((s) => schemaOf(s).enum ?? []);
  return values.length ? values : undefined;
}

/**
 * Another id of the collection `id` belongs to in the initial state: the next key (sorted, wrapping)
 * of the object that has `id` as a key, else the next value of the same field among the records of
 * the array or object that holds a record with that field value. First match in key order.
 */
export function siblingId(id: string, state: unknown): string | undefined {
  if (!state || typeof state !== "object") return undefined;
  const entries: (readonly [string, unknown])[] = Array.isArray(state)
    ? (state as unknown[]).map((v, i) => [String(i), v] as const)
    : Object.keys(state)
        .sort()
        .map((k) => [k, (state as Record<string, unknown>)[k]] as const);
  if (!Array.isArray(state) && Object.hasOwn(state, id)) {
    const keys = entries.map(([k]) => k);
    if (keys.length > 1) return keys[(keys.indexOf(id) + 1) % keys.length];
  }
  const fromField = siblingFieldValue(
    id,
    entries.map(([, v]) => v),
  );
  if (fromField !== undefined) return fromField;
  for (const [, value] of entries) {
    const found = siblingId(id, value);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Records (objects) in one collection where some field holds `id`: the next distinct value of that field. */
function siblingFieldValue(id: string, records: unknown[]): string | undefined {
  const objects = records.filter(
    (r): r is Record<string, unknown> => !!r && typeof r === "object" && !Array.isArray(r),
  );
  if (objects.length < 2) return undefined;
  const fields = Object.keys(objects.find((o) => Object.values(o).includes(id)) ?? {})
    .sort()
    .filter((f) => f.endsWith("id") || f === "code");
  for (const field of fields) {
    const values = [
      ...new Set(objects.map((o) => o[field]).filter((v): v is string => typeof v === "string")),
    ];
    const at = values.indexOf(id);
    if (at >= 0 && values.length > 1) return values[(at + 1) % values.length];
  }
  return undefined;
}
