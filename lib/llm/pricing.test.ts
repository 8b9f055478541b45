/** Prices: which models a table prices, and the refusal of a cost budget on an unpriced model. */
import { describe, expect, it } from "vitest";
import { isAppError } from "../core/errors";
import { DEFAULT_PRICES, findPrice, requirePricesForBudget, unpricedModels } from "./pricing";

describe("prices", () => {
  it("prices a model by its exact name or as a dated snapshot, never a sibling model by prefix", () => {
    expect(findPrice(DEFAULT_PRICES, "gpt-4.1")).toEqual({ input: 2, output: 8 });
    expect(findPrice(DEFAULT_PRICES, "gpt-4.1-2025-04-14")).toEqual({ input: 2, output: 8 });
    expect(findPrice(DEFAULT_PRICES, "gpt-4.1-mini-2025-04-14")).toEqual({ input: 0.4, output: 1.6 });
    expect(findPrice(DEFAULT_PRICES, "gpt-4.1-nano")).toBeUndefined();
  });

  it("names the unpriced models, each once, the common ones among them by default", () => {
    expect(
      unpricedModels(DEFAULT_PRICES, ["gpt-4o", "gpt-4.1", "gpt-5", "o3", "gpt-4o", null, "claude-sonnet-4"]),
    ).toEqual(["gpt-4o", "gpt-5", "o3", "claude-sonnet-4"]);
  });

  it("refuses a cost budget on an unpriced model, and allows it once the model has a price", () => {
    let refusal: unknown;
    try {
      requirePricesForBudget(DEFAULT_PRICES, ["gpt-4.1", "gpt-4o"], 5);
    } catch (e) {
      refusal = e;
    }
    expect(isAppError(refusal) && refusal.code).toBe("INVALID_INPUT");
    expect(refusal instanceof Error && refusal.message).toMatch(
      /^A cost budget needs a price for every model the run uses; gpt-4o has none, so its calls would count as \$0 and the budget of \$5 would never stop the run\. Add it to LLM_PRICES/,
    );
    expect(() =>
      requirePricesForBudget({ ...DEFAULT_PRICES, "gpt-4o": { input: 2.5, output: 10 } }, ["gpt-4o"], 5),
    ).not.toThrow();
    expect(() => requirePricesForBudget(DEFAULT_PRICES, ["gpt-4o"], null)).not.toThrow();
  });
});
