import { z } from "zod";

export const BENCH_STATE_SOURCES = ["initial", "gold", "trajectory", "custom"] as const;

export const RunBenchInputSchema = z.object({
  scenarioId: z.string().min(1),
  stateSource: z.enum(BENCH_STATE_SOURCES),
  trajectoryId: z.string().optional(),
  customState: z.record(z.string(), z.unknown()).optional(),
  /** Unsaved edits to try before saving: validatorId → check code. */
  codes: z.record(z.string(), z.string().max(100_000)).default({}),
});
export type RunBenchInput = z.infer<typeof RunBenchInputSchema>;

/** EnvScaler gold calls: `{ name, arguments }` (some generators write `args`). */
export const GoldCallsSchema = z.array(
  z
    .object({
      name: z.string(),
      arguments: z.record(z.string(), z.unknown()).optional(),
      args: z.record(z.string(), z.unknown()).optional(),
    })
    .transform((c) => ({ name: c.name, args: c.arguments ?? c.args ?? {} })),
);

export type BenchCheck = {
  validatorId: string;
  position: number;
  checkItem: string;
  result: { passed: boolean } | { error: string };
};
export type BenchRun = {
  stateSource: (typeof BENCH_STATE_SOURCES)[number];
  finalState: Record<string, unknown>;
  checks: BenchCheck[];
  goldLog: { name: string; isError: boolean }[];
};
