/**
 * The preview at corpus scale against the pure plan. Random corpora (environments in every status
 * with several versions, scenarios in every status with accepted checks that may be stale or
 * malformed, proofs on right and wrong pins with ties in time, weak and strong near-miss evidence,
 * rollouts on right and wrong pins) and random requests (chosen environments, pins to unaccepted
 * versions, override, left-out scenarios, seeds, ratios, every difficulty filter and sort, pages
 * anywhere). For each, previewDatasetPage must equal previewPage(planDatasetVersion(...)) exactly:
 * totals, reasons with their actions, warnings, summary, both pages item by item. Then the corpus
 * is changed through every input the kept facts depend on, and the two must still agree.
 */
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/db";
import {
  type Corpus,
  type Random,
  addEvidence,
  chance,
  pick,
  seedCorpus,
  some,
  weakEvidence,
} from "@/tests/random-corpus";
import { DIFFICULTY_SORTS, type CreateDatasetVersionInput } from "../dataset.schema";
import { type DatasetPreviewPage, previewPage } from "../preview-page";
import { seededRandom } from "../split";
import { previewDatasetVersion } from "./create-dataset-version";
import { previewDatasetPage } from "./preview-dataset-page";

const t = useTestDatabase();

function randomRequest(
  r: Random,
  corpus: Corpus,
): { input: CreateDatasetVersionInput; page: Parameters<typeof previewDatasetPage>[2] } {
  const chosen = some(r, corpus.environments, 0.4).map((e) => (chance(r, 0.5) ? e.id : e.slug));
  // Half the requests keep the default pins (no chosen pin, no override): the preview reads those
  // from the kept facts' indexes rather than classifying every scenario.
  const defaults = chance(r, 0.5);
  const pinned = defaults ? [] : some(r, corpus.environments, 0.3);
  const override = !defaults && chance(r, 0.3);
  const band = () => {
    const a = pick(r, [0, 0.1, 0.25, 0.5]);
    return { min: a, max: pick(r, [0.5, 0.75, 0.9, 1]) };
  };
  return {
    input: {
      projectId: corpus.projectId,
      name: "preview",
      environments: chosen.length ? chosen : undefined,
      pins: Object.fromEntries(pinned.map((e) => [e.id, pick(r, e.versions)])),
      overrideReason: override ? "testing the override" : undefined,
      excludeScenarioIds: defaults && chance(r, 0.5) ? [] : some(r, corpus.scenarios, 0.1).map((s) => s.id),
      seed: Math.floor(r() * 1000),
      testRatio: pick(r, [0, 0.2, 0.5]),
      difficulty: {
        k: 1 + Math.floor(r() * 4),
        groupSize: 2 + Math.floor(r() * 7),
        excludeZeroSignal: chance(r, 0.5),
        trainBand: chance(r, 0.3) ? band() : undefined,
        testBand: chance(r, 0.3) ? band() : undefined,
        sort: pick(r, DIFFICULTY_SORTS),
      },
    },
    page: {
      offset: pick(r, [0, 0, 1, 3, 7]),
      limit: pick(r, [1, 2, 5, 100]),
      show: pick(r, ["all", "all", "weak"] as const),
      excludedOffset: pick(r, [0, 0, 2, 5]),
    },
  };
}

/** What the compared previews exercised: a test over empty previews would prove nothing. */
const seen = {
  reasons: new Set<string>(),
  included: 0,
  overridden: 0,
  weak: 0,
  test: 0,
  excludedRows: 0,
  warnings: 0,
  /** Rows of both pages in requests that kept every default (the index-read path). */
  defaultRows: { included: 0, excluded: 0, test: 0, leftOutByHand: 0 },
};

const asBrowserSees = (preview: DatasetPreviewPage) =>
  JSON.parse(JSON.stringify(preview)) as DatasetPreviewPage;

/** Both paths, compared as the browser receives them (JSON). */
async function agree(corpus: Corpus, r: Random, requests: number) {
  for (let i = 0; i < requests; i++) {
    const { input, page } = randomRequest(r, corpus);
    const whole = asBrowserSees(previewPage(await previewDatasetVersion(t.db, input), page));
    const paged = asBrowserSees(await previewDatasetPage(t.db, input, page));
    for (const reason of whole.reasons) seen.reasons.add(reason.reason.replace(/\d+(\.\d+)?/g, "#"));
    seen.included += whole.included.length;
    seen.overridden += whole.totals.overridden;
    seen.weak += whole.totals.weak;
    seen.test += whole.included.filter((i) => i.split === "TEST").length;
    seen.excludedRows += whole.excluded.length;
    seen.warnings += whole.warnings.length;
    if (Object.keys(input.pins ?? {}).length === 0 && !input.overrideReason) {
      seen.defaultRows.included += whole.included.length;
      seen.defaultRows.excluded += whole.excluded.length;
      seen.defaultRows.test += whole.included.filter((i) => i.split === "TEST").length;
      seen.defaultRows.leftOutByHand += whole.excluded.filter((e) => e.reason === "left out by you").length;
    }
    if (!isDeepStrictEqual(paged, whole)) {
      expect({ request: { input, page }, preview: paged }).toEqual({
        request: { input, page },
        preview: whole,
      });
    }
  }
}

describe("the dataset preview read from kept facts", () => {
  it("equals the pure plan's preview on random corpora and random requests", async () => {
    for (const seed of [1, 2, 3]) {
      const r = seededRandom(seed);
      const corpus = await seedCorpus(t.db, r, `s${seed}`);
      await agree(corpus, r, 40);
    }
    expect(seen.included).toBeGreaterThan(50);
    expect(seen.overridden).toBeGreaterThan(0);
    expect(seen.weak).toBeGreaterThan(0);
    expect(seen.test).toBeGreaterThan(0);
    expect(seen.excludedRows).toBeGreaterThan(50);
    expect(seen.warnings).toBeGreaterThan(0);
    expect(seen.defaultRows.included).toBeGreaterThan(20);
    expect(seen.defaultRows.excluded).toBeGreaterThan(20);
    expect(seen.defaultRows.test).toBeGreaterThan(0);
    expect(seen.defaultRows.leftOutByHand).toBeGreaterThan(0);
    // Every way to be left out: by hand, by review, by missing acceptance, by proof, by difficulty.
    expect([...seen.reasons].sort()).toEqual(
      expect.arrayContaining([
        "left out by you",
        "rejected by a reviewer",
        "not accepted (waiting for review)",
        "environment not accepted",
        "proof missing for environment v#",
        "proof failed for environment v#",
        "changed since accepted and proof missing for environment v#",
        "environment v# not accepted; proof missing for environment v#",
        "no learning signal: all # counted rollouts solved it",
        "no learning signal: none of # counted rollouts solved it",
        "success rate # % outside the train band # %–# %",
        "no counted rollouts: cannot place it in the train difficulty band",
      ]),
    );
  }, 240_000);

  it("still equals it after every input of the kept facts changes", async () => {
    const r = seededRandom(7);
    const corpus = await seedCorpus(t.db, r, "changes");
    await agree(corpus, r, 10);
    const [env] = corpus.environments;
    const [scenario] = corpus.scenarios;
    if (!env || !scenario) throw new Error("the seed made an empty corpus");
    // Environment: accepted, its accepted version moved, renamed (the key), its current version moved.
    await t.db.environment.update({ where: { id: env.id }, data: { status: "ACCEPTED" } });
    await agree(corpus, r, 5);
    await t.db.environment.update({
      where: { id: env.id },
      data: { status: "IN_REVIEW", acceptedVersionId: env.versions[0], slug: "renamed" },
    });
    env.slug = "renamed";
    await agree(corpus, r, 5);
    // Scenario: accepted (its checks become the current ones), then its checks move on.
    await t.db.scenario.update({ where: { id: scenario.id }, data: { status: "ACCEPTED" } });
    await agree(corpus, r, 5);
    const validator = await t.db.validator.findFirstOrThrow({ where: { scenarioId: scenario.id } });
    const newer = await t.db.validatorVersion.create({
      data: {
        validatorId: validator.id,
        version: 9,
        code: "def check_func(s): return False",
        checkItem: "c",
        producedBy: "test",
      },
    });
    await t.db.validator.update({ where: { id: validator.id }, data: { currentVersionId: newer.id } });
    scenario.validatorVersions[0]?.push(newer.id);
    await agree(corpus, r, 5);
    // Proofs and rollouts added, one proof's evidence rewritten, rollouts deleted and regraded.
    for (const s of corpus.scenarios) await addEvidence(t.db, r, corpus, s.id);
    await t.db.validatorProof.updateMany({
      where: { scenarioId: scenario.id },
      data: { nearMiss: weakEvidence },
    });
    await agree(corpus, r, 5);
    await t.db.trajectory.updateMany({ where: { model: "model-a" }, data: { reward: 1 } });
    await t.db.trajectory.deleteMany({ where: { model: "model-b" } });
    await agree(corpus, r, 5);
    // A scenario and a validator deleted.
    await t.db.validator.delete({ where: { id: validator.id } });
    await agree(corpus, r, 5);
    await t.db.scenario.delete({ where: { id: scenario.id } });
    corpus.scenarios = corpus.scenarios.filter((s) => s.id !== scenario.id);
    await agree(corpus, r, 10);
  }, 240_000);
});
