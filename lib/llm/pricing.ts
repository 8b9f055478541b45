/**
 * Per-model prices (USD per million tokens). The table comes from settings / LLM_PRICES and is
 * snapshotted into each run's config, so a run's cost never changes when prices are edited later.
 */
import { z } from "zod";
import type { Usage } from "./llm.schema";

export const PriceSchema = z.object({ input: z.number().min(0), output: z.number().min(0) });
export const PriceTableSchema = z.record(z.string(), PriceSchema);
export type PriceTable = z.infer<typeof PriceTableSchema>;

/** Public list prices at the time of writing; override with LLM_PRICES or the settings page. */
export const DEFAULT_PRICES: PriceTable = {
  "gpt-4.1": { input: 2, output: 8 },
  "gpt-4.1-mini": { input: 0.4, output: 1.6 },
  "gpt-4o-mini": { input: 0.15, output: 0.6 },
  "text-embedding-3-large": { input: 0.13, output: 0 },
  "text-embedding-3-small": { input: 0.02, output: 0 },
};

/** Exact model name first, then the longest table key the model name starts with (dated variants). */
export function findPrice(table: PriceTable, model: string): z.infer<typeof PriceSchema> | undefined {
  if (table[model]) return table[model];
  const prefix = Object.keys(table)
    .filter((k) => model.startsWith(k))
    .sort((a, b) => b.length - a.length)[0];
  return prefix ? table[prefix] : undefined;
}

export function costOf(table: PriceTable, model: string, usage: Usage): number {
  const price = findPrice(table, model);
  if (!price) return 0;
  return (usage.promptTokens * price.input + usage.completionTokens * price.output) / 1_000_000;
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
