import { describe, expect, it } from "vitest";
import type { NearMissStrength } from "../scenarios/near-miss-strength";
import type { DatasetPlan, PlanExcluded, PlanItem } from "./plan";
import { PreviewPageSchema, previewPage } from "./preview-page";

const weakStrength: NearMissStrength = {
  status: "MEASURED",
  reason: null,
  total: 3,
  rejected: 2,
  crashed: 0,
  sameAsGold: 0,
  perCheck: [],
  passed: [{ kind: "drop", description: "drops call 1", calls: [] }],
};

function item(i: number): PlanItem {
  return {
    scenarioId: `s${i}`,
    key: `env/${String(i).padStart(4, "0")}`,
    environmentId: "e",
    environmentSlug: "env",
    environmentVersionId: "ev",
    environmentVersion: 1,
    validatorVersionIds: [],
    validatorVersions: [],
    split: "TRAIN",
    overridden: i % 50 === 0,
    note: "",
    difficulty: null,
    strength: i % 10 === 0 ? weakStrength : null,
  };
}

const excludedItem = (i: number): PlanExcluded => ({
  scenarioId: `x${i}`,
  key: `env/x${i}`,
  reason: i % 3 === 0 ? "proof missing" : "not accepted (waiting for review)",
  needsOverride: i % 3 === 0,
});

const plan: DatasetPlan = {
  included: Array.from({ length: 250 }, (_, i) => item(i)),
  excluded: Array.from({ length: 150 }, (_, i) => excludedItem(i)),
  warnings: Array.from({ length: 30 }, (_, i) => `env-${i}: none of its 3 scenarios can be included.`),
  environments: [
    {
      id: "one",
      slug: "one",
      pinnedVersionId: "v1",
      acceptedVersionId: "v1",
      currentVersionId: "v1",
      versions: [{ id: "v1", version: 1, accepted: true, current: true }],
    },
    {
      id: "two",
      slug: "two",
      pinnedVersionId: "v1",
      acceptedVersionId: "v1",
      currentVersionId: "v2",
      versions: [
        { id: "v2", version: 2, accepted: false, current: true },
        { id: "v1", version: 1, accepted: true, current: false },
      ],
    },
    {
      id: "none",
      slug: "none",
      pinnedVersionId: null,
      acceptedVersionId: null,
      currentVersionId: "n1",
      versions: [{ id: "n1", version: 1, accepted: false, current: true }],
    },
  ],
  difficulty: null,
};

describe("preview page", () => {
  it("counts the whole plan but sends one page of each list", () => {
    const first = previewPage(plan, PreviewPageSchema.parse(undefined));
    expect(first.totals).toEqual({
      scenarios: 400,
      included: 250,
      excluded: 150,
      weak: 25,
      overridden: 5,
      needsOverride: 50,
      shown: 250,
    });
    expect(first.included.map((i) => i.key)).toEqual(plan.included.slice(0, 100).map((i) => i.key));
    expect(first.excluded).toHaveLength(100);
    const third = previewPage(plan, PreviewPageSchema.parse({ offset: 200, excludedOffset: 100 }));
    expect(third.included.map((i) => i.scenarioId)).toEqual(
      plan.included.slice(200).map((i) => i.scenarioId),
    );
    expect(third.excluded.map((e) => e.scenarioId)).toEqual(
      plan.excluded.slice(100).map((e) => e.scenarioId),
    );
  });

  it("lists only weak validators when asked, paged over those", () => {
    const weak = previewPage(plan, PreviewPageSchema.parse({ show: "weak", limit: 10, offset: 20 }));
    expect(weak.totals.shown).toBe(25);
    expect(weak.included.map((i) => i.scenarioId)).toEqual(["s200", "s210", "s220", "s230", "s240"]);
  });

  it("groups the reasons for leaving out, most frequent first, and caps the warnings", () => {
    const page = previewPage(plan, PreviewPageSchema.parse({}));
    expect(page.reasons).toEqual([
      { reason: "not accepted (waiting for review)", count: 100, needsOverride: false },
      { reason: "proof missing", count: 50, needsOverride: true },
    ]);
    expect(page.warnings).toHaveLength(21);
    expect(page.warnings.at(-1)).toBe("…and 10 more warning(s) like these.");
  });

  it("sends only the environments with a version to pick", () => {
    expect(previewPage(plan, PreviewPageSchema.parse({})).environments.map((e) => e.id)).toEqual([
      "two",
      "none",
    ]);
  });

  it("refuses a page that is not one", () => {
    expect(PreviewPageSchema.safeParse({ offset: -1 }).success).toBe(false);
    expect(PreviewPageSchema.safeParse({ limit: 0 }).success).toBe(false);
    expect(PreviewPageSchema.safeParse({ limit: 501 }).success).toBe(false);
    expect(PreviewPageSchema.safeParse({ show: "strong" }).success).toBe(false);
  });
});
