import { describe, expect, it } from "vitest";
import { type PlanEnvironment, type PlanScenario, planDatasetVersion } from "./plan";

const env = (over: Partial<PlanEnvironment> = {}): PlanEnvironment => ({
  id: "e1",
  slug: "shop",
  name: "Shop",
  status: "ACCEPTED",
  currentVersionId: "ev1",
  acceptedVersionId: "ev1",
  versions: [
    { id: "ev1", version: 1 },
    { id: "ev2", version: 2 },
  ],
  ...over,
});
const scenario = (over: Partial<PlanScenario> = {}): PlanScenario => ({
  id: "s1",
  externalId: "shop-01",
  environmentId: "e1",
  status: "ACCEPTED",
  acceptedValidatorVersionIds: ["vv1"],
  currentValidatorVersionIds: ["vv1"],
  validatorVersionNumbers: { vv1: 1 },
  proofs: [],
  ...over,
});
const opts = { pins: {}, override: false, excludeScenarioIds: [], seed: 1, testRatio: 0 };
const actionFor = (e: PlanEnvironment, s: PlanScenario, pins: Record<string, string> = {}) =>
  planDatasetVersion([e], [s], { ...opts, pins }).excluded[0]?.action;
const proven = (environmentVersionId: string, status = "VERIFIED") => [
  { environmentVersionId, validatorVersionIds: ["vv1"], status },
];

describe("every exclusion carries what resolves it", () => {
  it("a missing proof links to the environment, where it is proven", () => {
    expect(actionFor(env(), scenario())).toEqual({ label: "prove it", href: "/environments/e1" });
  });

  it("a failed proof links to the scenario's proof", () => {
    expect(actionFor(env(), scenario({ proofs: proven("ev1", "FAILED") }))).toEqual({
      label: "see why the proof failed",
      href: "/scenarios/s1",
    });
  });

  it("an environment edited since acceptance: the accepted pin's proof is missing, and the current version is what the studio proves", () => {
    const edited = env({ status: "IN_REVIEW", currentVersionId: "ev2", acceptedVersionId: "ev1" });
    expect(actionFor(edited, scenario({ proofs: proven("ev2") }))).toEqual({
      label: "review and prove the current version, then pin it",
      href: "/environments/e1",
    });
  });

  it("a pin on a version nobody accepted asks for an accepted one", () => {
    expect(actionFor(env(), scenario({ proofs: proven("ev2") }), { e1: "ev2" })).toEqual({
      label: "pick an accepted environment version above",
    });
  });

  it("unreviewed or rejected items and unaccepted environments link to their review", () => {
    expect(actionFor(env(), scenario({ status: "IN_REVIEW", acceptedValidatorVersionIds: null }))).toEqual({
      label: "review it",
      href: "/scenarios/s1",
    });
    expect(actionFor(env(), scenario({ status: "REJECTED" }))?.href).toBe("/scenarios/s1");
    expect(actionFor(env({ status: "IN_REVIEW", acceptedVersionId: null }), scenario())).toEqual({
      label: "review the environment",
      href: "/environments/e1/quality",
    });
  });

  it("an item with accepted, proven pins is included, and one left out by the curator has no action", () => {
    const plan = planDatasetVersion([env()], [scenario({ proofs: proven("ev1") })], opts);
    expect(plan.included).toHaveLength(1);
    const left = planDatasetVersion([env()], [scenario()], { ...opts, excludeScenarioIds: ["s1"] });
    expect(left.excluded[0]).toEqual({
      scenarioId: "s1",
      key: "shop/shop-01",
      reason: "left out by you",
      needsOverride: false,
    });
  });
});
