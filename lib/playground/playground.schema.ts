import { z } from "zod";

const JsonObject = z.record(z.string(), z.unknown());

/** Replaying more than this per call would make the playground slow; reset instead. */
export const MAX_PLAYGROUND_STEPS = 200;

export const ToolCallSchema = z.object({ name: z.string().min(1).max(200), args: JsonObject });
export type ToolCall = z.infer<typeof ToolCallSchema>;

export const RunToolInputSchema = z.object({
  environmentId: z.string().min(1),
  versionId: z.string().min(1),
  initialState: JsonObject,
  /** Earlier calls with the observations they produced, replayed before `call`. */
  history: z.array(ToolCallSchema.extend({ observation: z.unknown().optional() })).max(MAX_PLAYGROUND_STEPS),
  call: ToolCallSchema,
});
export type RunToolInput = z.infer<typeof RunToolInputSchema>;

export type PlaygroundStep = {
  call: ToolCall;
  observation: unknown;
  isError: boolean;
  diff: {
    added: { path: (string | number)[]; value: unknown }[];
    removed: { path: (string | number)[]; value: unknown }[];
    changed: { path: (string | number)[]; old: unknown; new: unknown }[];
  };
  state: Record<string, unknown>;
  stdout: string;
  /** Index of the first replayed call whose observation differed from the recorded one (a non-deterministic tool). */
  divergedAt: number | null;
};

/** Parses a JSON text as an object (initial states and raw arguments). */
export function parseJsonObject(
  text: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `Not valid JSON: ${(e as Error).message}` };
  }
  const parsed = JsonObject.safeParse(value);
  return parsed.success && !Array.isArray(value)
    ? { ok: true, value: parsed.data }
    : { ok: false, error: "Expected a JSON object ({ … })." };
}
