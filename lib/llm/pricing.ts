/**
 * Per-model prices (USD per million tokens). The table comes from LLM_PRICES over the built-in one
 * and is snapshotted into each run's config, so a run's cost never changes when prices are edited
 * later. A model without a price costs $0: its calls are marked unpriced and shown as a warning, and
 * a run with a cost budget refuses to start on one (its spending would never reach the budget).
 */
import { z } from "zod";
import { AppError } from "../core/errors";
import type { Usage } from "./llm.schema";

export const PriceSchema = z.object({ input: z.number().min(0), output: z.number().min(0) });
export const PriceTableSchema = z.record(z.string(), PriceSchema);
export type PriceTable = z.infer<typeof PriceTableSchema>;

/** Public list prices at the time of writing; override or extend with LLM_PRICES. */
export const DEFAULT_PRICES: PriceTable = {
  "gpt-4.1": { input: 2, output: 8 },
  "gpt-4.1-mini": { input: 0.4, output: 1.6 },
  "gpt-4o-mini": { input: 0.15, output: 0.6 },
  "text-embedding-3-large": { input: 0.13, output: 0 },
  "text-embedding-3-small": { input: 0.02, output: 0 },
};

/**
 * A dated snapshot of a priced model: `-2025-04-14`, `-20250514`, `-0613`. Any other suffix names a
 * different model (`gpt-4.1-nano` is not `gpt-4.1`, `o3-pro` is not `o3`) and is not priced by prefix.
 */
const SNAPSHOT_SUFFIX = /^[-@](\d{4}-\d{2}-\d{2}|\d{4}|\d{8})$/;

/** Exact model name first, then the longest table key of which the model is a dated snapshot. */
export function findPrice(table: PriceTable, model: string): z.infer<typeof PriceSchema> | undefined {
  if (table[model]) return table[model];
  const prefix = Object.keys(table)
    .filter((k) => model.startsWith(k) && SNAPSHOT_SUFFIX.test(model.slice(k.length)))
    .sort((a, b) => b.length - a.length)[0];
  return prefix ? table[prefix] : undefined;
}

export function costOf(table: PriceTable, model: string, usage: Usage): number {
  const price = findPrice(table, model);
  if (!price) return 0;
  return (usage.promptTokens * price.input + usage.completionTokens * price.output) / 1_000_000;
}

/** The models (each once, in order) that `table` has no price for. */
export function unpricedModels(table: PriceTable, models: (string | null | undefined)[]): string[] {
  const named = models.filter((m): m is string => !!m);
  return [...new Set(named)].filter((m) => !findPrice(table, m));
}

/** How a run's accounting words its unpriced models, wherever it is shown. */
export const unpricedWarning = (models: string[]): string =>
  `no price for ${models.join(", ")}: ${models.length === 1 ? "its" : "their"} calls count as $0 (set LLM_PRICES, USD per million tokens)`;

/**
 * Refuses a run with a cost budget that uses an unpriced model: its calls would count $0 and the
 * budget would never stop it. Called before anything is written or enqueued.
 */
export function requirePricesForBudget(
  table: PriceTable,
  models: (string | null | undefined)[],
  maxCostUsd: number | null | undefined,
): void {
  if (maxCostUsd === null || maxCostUsd === undefined) return;
  const missing = unpricedModels(table, models);
  if (missing.length === 0) return;
  const [first] = missing;
  throw new AppError(
    "INVALID_INPUT",
    `A cost budget needs a price for every model the run uses; ${missing.join(", ")} ${missing.length === 1 ? "has" : "have"} none, ` +
      `so ${missing.length === 1 ? "its" : "their"} calls would count as $0 and the budget of $${maxCostUsd} would never stop the run. ` +
      `Add ${missing.length === 1 ? "it" : "them"} to LLM_PRICES ({"${first}": {"input": <USD per million input tokens>, "output": <USD per million output tokens>}}) or start without a cost budget.`,
  );
}

export function parsePriceTable(raw: string | undefined): PriceTable {
  if (!raw) return DEFAULT_PRICES;
  const parsed = PriceTableSchema.safeParse(JSON.parse(raw));
  if (!parsed.success)
    throw new Error(
      `LLM_PRICES must be {"model": {"input": usdPerMTok, "output": usdPerMTok}}: ${parsed.error.message}`,
    );
  return { ...DEFAULT_PRICES, ...parsed.data };
}
