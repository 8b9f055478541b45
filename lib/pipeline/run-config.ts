/**
 * A run's configuration from defaults (env / settings) plus what the user picked. The result is
 * stored on the run, so a run can be reproduced and its cost explained later.
 */
import { type PriceTable, requirePricesForBudget, unpricedModels } from "../llm/pricing";
import { type Models, type RunConfig, RunConfigSchema } from "./pipeline.schema";

export type ModelDefaults = { defaultModel: string; checkModel: string; embeddingModel: string | null };

export function defaultModels(d: ModelDefaults): Models {
  return {
    topic: d.defaultModel,
    logic: d.defaultModel,
    code: d.defaultModel,
    testState: d.defaultModel,
    tester: d.checkModel,
    judge: d.checkModel,
    embedding: d.embeddingModel,
  };
}

export type RunConfigOverrides = Partial<Omit<RunConfig, "models">> & { models?: Partial<Models> };

export function buildRunConfig(
  defaults: ModelDefaults,
  overrides: RunConfigOverrides = {},
  prices: RunConfig["prices"] = {},
): RunConfig {
  const { models, ...rest } = overrides;
  const clean = Object.fromEntries(
    Object.entries(models ?? {}).filter(([, v]) => v !== undefined && v !== ""),
  );
  return RunConfigSchema.parse({ prices, ...rest, models: { ...defaultModels(defaults), ...clean } });
}

/** The prices a run's calls are costed with: its snapshot over the worker's LLM_PRICES. */
export const runPrices = (config: RunConfig, envPrices: PriceTable): PriceTable => ({
  ...envPrices,
  ...config.prices,
});

/**
 * The run's models that have no price (their calls would count $0). Throws INVALID_INPUT when the
 * run has a cost budget and any model is unpriced: the budget could never stop it.
 */
export function checkRunPrices(config: RunConfig, envPrices: PriceTable): string[] {
  const models = Object.values(config.models);
  const prices = runPrices(config, envPrices);
  requirePricesForBudget(prices, models, config.maxCostUsd);
  return unpricedModels(prices, models);
}

/** `--models topic=gpt-4.1,tester=gpt-4.1-mini` or a single name for every LLM stage. */
export function parseModelsFlag(value: string): Partial<Models> {
  if (!value.includes("="))
    return { topic: value, logic: value, code: value, testState: value, tester: value, judge: value };
  const out: Record<string, string> = {};
  for (const pair of value.split(",")) {
    const [key, model] = pair.split("=").map((s) => s.trim());
    if (!key || !model) throw new Error(`--models: expected stage=model pairs, got '${pair}'`);
    if (!["topic", "logic", "code", "testState", "tester", "judge", "embedding"].includes(key))
      throw new Error(
        `--models: unknown stage '${key}' (topic, logic, code, testState, tester, judge, embedding)`,
      );
    out[key] = model;
  }
  return out;
}
