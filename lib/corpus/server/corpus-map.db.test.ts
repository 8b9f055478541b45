import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/db";
import {
  acceptAndProveScenarios,
  actorOf,
  createEnvironment,
  createScenario,
  createTrajectory,
  createTestProject,
  createUser,
  proveScenario,
} from "@/prisma/seed/factories";
import { createDatasetVersion } from "@/lib/datasets/server/create-dataset-version";
import { findAuditLog } from "@/lib/review/server/find-audit-log";
import { loadSamples } from "@/prisma/seed/load-samples";
import { seedSamples } from "@/prisma/seed/seed-samples";
import { CorpusMapQuerySchema } from "../corpus.schema";
import { SIGNATURE_ALGORITHM } from "../signature";
import { dismissDuplicates } from "./dismiss-duplicates";
import { getCorpusMap } from "./get-corpus-map";
import { mergeDuplicates } from "./merge-duplicates";

const t = useTestDatabase();
const query = (q: Record<string, unknown> = {}) => CorpusMapQuerySchema.parse(q);

const tool = (name: string, params: string[]) => ({
  type: "function",
  function: {
    name,
    description: "",
    parameters: {
      type: "object",
      properties: Object.fromEntries(params.map((p) => [p, { type: "string" }])),
      required: [],
    },
  },
});

/** Three methods with real bodies; `noun` changes every identifier, so two nouns share no shingle. */
const source = (noun: string, doc: string) => `
class ${noun}Store:
    """${doc}"""
    def __init__(self, init_config=None):
        self.${noun}_items = {}
        self.${noun}_log = []

    def add_${noun}(self, ${noun}_id: str, ${noun}_name: str) -> dict:
        """${doc} add."""
        if ${noun}_id in self.${noun}_items:
            return {"success": False, "error": "exists"}
        self.${noun}_items[${noun}_id] = {"name": ${noun}_name, "count": 1}
        self.${noun}_log.append(("add", ${noun}_id))
        return {"success": True, "data": self.${noun}_items[${noun}_id]}

    def remove_${noun}(self, ${noun}_id: str) -> dict:
        ${noun}_item = self.${noun}_items.pop(${noun}_id, None)
        if ${noun}_item is None:
            return {"success": False, "error": "missing"}
        self.${noun}_log.append(("remove", ${noun}_id))
        return {"success": True}

    def list_${noun}(self) -> dict:
        return {"success": True, "data": sorted(self.${noun}_items)}
`;

async function seedCorpus() {
  const project = await createTestProject(t.db);
  const mk = (slug: string, src: string, tools: unknown[] = [], domain = "general") =>
    createEnvironment(t.db, project.id, { slug, source: src, tools, domain, status: "IN_REVIEW" });
  const bookTools = [
    tool("add_book", ["book_id", "book_name"]),
    tool("remove_book", ["book_id"]),
    tool("list_book", []),
  ];
  // A reworded copy of the library under another topic: same code after normalisation.
  const library = await mk("library", source("book", "A lending library."), bookTools, "library");
  const archive = await mk(
    "archive",
    source("book", "Archive of rare volumes, other words."),
    bookTools,
    "museum",
  );
  // Different code, same tool signatures (≥ 3 tools): a tool-signature duplicate.
  const shopTools = [tool("buy", ["sku", "qty"]), tool("refund", ["order"]), tool("track", ["order"])];
  const shop = await mk("shop", source("cart", "A shop."), shopTools, "retail");
  const market = await mk("market", source("stall", "A market."), shopTools, "retail");
  // Unrelated code, and two environments sharing only two tools (too few to count).
  const hotel = await mk(
    "hotel",
    source("room", "A hotel."),
    [tool("check_in", ["guest"]), tool("invoice", ["guest"]), tool("cancel", ["guest"])],
    "travel",
  );
  const pair = [tool("ping", []), tool("status", [])];
  const small1 = await mk("small-one", source("alpha", "x"), pair);
  const small2 = await mk("small-two", source("omega", "y"), pair);
  // Another project's copy never appears in this project's map.
  const other = await createTestProject(t.db);
  await createEnvironment(t.db, other.id, {
    slug: "library-elsewhere",
    source: source("book", "z"),
    tools: bookTools,
  });
  return { project, library, archive, shop, market, hotel, small1, small2 };
}

describe("corpus map: near-duplicates", () => {
  it("clusters reworded code copies and tool-signature twins, and nothing else", async () => {
    const w = await seedCorpus();
    const map = await getCorpusMap(t.db, w.project.id, query());
    expect(map.environments).toBe(7);
    const clusters = map.duplicates.clusters.map((c) => c.members.map((m) => m.slug).sort());
    expect(clusters).toHaveLength(2);
    expect(clusters).toContainEqual(["archive", "library"]);
    expect(clusters).toContainEqual(["market", "shop"]);
    expect(map.duplicates).toMatchObject({ clusterCount: 2, redundant: 2, page: 1, pageCount: 1 });
    const code = map.duplicates.clusters.find((c) => c.members.some((m) => m.slug === "library"))!;
    expect(code.maxCodeSimilarity).toBe(1);
    const tools = map.duplicates.clusters.find((c) => c.members.some((m) => m.slug === "shop"))!;
    expect(tools.maxToolSimilarity).toBe(1);
    expect(tools.maxCodeSimilarity).toBeLessThan(0.7);
    // Signatures were backfilled once for the versions in scope (the factory writes none).
    expect(
      await t.db.environmentSignature.count({
        where: { environmentVersion: { environment: { projectId: w.project.id } } },
      }),
    ).toBe(7);
  });

  it("merges a cluster: the others are rejected with an audit entry and leave the map", async () => {
    const w = await seedCorpus();
    const alice = actorOf(await createUser(t.db));
    const result = await mergeDuplicates(
      t.db,
      w.project.id,
      {
        keep: { environmentId: w.library.id, versionId: w.library.currentVersionId! },
        reject: [{ environmentId: w.archive.id, versionId: w.archive.currentVersionId! }],
        reason: "",
      },
      alice,
    );
    expect(result.rejected).toBe(1);
    expect((await t.db.environment.findUniqueOrThrow({ where: { id: w.archive.id } })).status).toBe(
      "REJECTED",
    );
    expect((await t.db.environment.findUniqueOrThrow({ where: { id: w.library.id } })).status).toBe(
      "IN_REVIEW",
    );
    const log = await findAuditLog(t.db, w.project.id, [
      { targetType: "ENVIRONMENT_VERSION", targetIds: [w.archive.currentVersionId!] },
    ]);
    expect(log[0]).toMatchObject({ decision: "REJECT" });
    expect(log[0]!.reason).toContain("Duplicate of library v1");
    const map = await getCorpusMap(t.db, w.project.id, query());
    expect(map.duplicates.clusters.map((c) => c.members.map((m) => m.slug).sort())).toEqual([
      ["market", "shop"],
    ]);
  });

  it("refuses a merge made on a stale version and changes nothing", async () => {
    const w = await seedCorpus();
    const alice = actorOf(await createUser(t.db));
    const merge = mergeDuplicates(
      t.db,
      w.project.id,
      {
        keep: { environmentId: w.library.id, versionId: w.library.currentVersionId! },
        reject: [
          { environmentId: w.shop.id, versionId: w.shop.currentVersionId! },
          { environmentId: w.archive.id, versionId: "a-version-nobody-saw" },
        ],
        reason: "",
      },
      alice,
    );
    await expect(merge).rejects.toMatchObject({ code: "CONFLICT" });
    expect((await t.db.environment.findUniqueOrThrow({ where: { id: w.shop.id } })).status).toBe("IN_REVIEW");
    await expect(
      mergeDuplicates(
        t.db,
        w.project.id,
        {
          keep: { environmentId: w.library.id, versionId: "stale" },
          reject: [{ environmentId: w.archive.id, versionId: w.archive.currentVersionId! }],
          reason: "",
        },
        alice,
      ),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    expect((await t.db.environment.findUniqueOrThrow({ where: { id: w.archive.id } })).status).toBe(
      "IN_REVIEW",
    );
  });

  it("lets only one of two opposite merges of the same cluster through", async () => {
    const w = await seedCorpus();
    const [alice, bob] = [actorOf(await createUser(t.db)), actorOf(await createUser(t.db))];
    const lib = { environmentId: w.library.id, versionId: w.library.currentVersionId! };
    const arc = { environmentId: w.archive.id, versionId: w.archive.currentVersionId! };
    const results = await Promise.allSettled([
      mergeDuplicates(t.db, w.project.id, { keep: lib, reject: [arc], reason: "" }, alice),
      mergeDuplicates(t.db, w.project.id, { keep: arc, reject: [lib], reason: "" }, bob),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.find((r) => r.status === "rejected")).toMatchObject({ reason: { code: "CONFLICT" } });
    const statuses = await t.db.environment.findMany({ where: { id: { in: [w.library.id, w.archive.id] } } });
    expect(statuses.map((e) => e.status).sort()).toEqual(["IN_REVIEW", "REJECTED"]);
  });

  it("dismisses a cluster as not duplicates, logged per version", async () => {
    const w = await seedCorpus();
    const alice = actorOf(await createUser(t.db));
    const versions = [w.shop.currentVersionId!, w.market.currentVersionId!];
    expect(
      await dismissDuplicates(
        t.db,
        w.project.id,
        { versionIds: versions, reason: "different domains" },
        alice,
      ),
    ).toEqual({ dismissedPairs: 1 });
    // Dismissing again is harmless.
    expect(
      await dismissDuplicates(t.db, w.project.id, { versionIds: versions.reverse(), reason: "" }, alice),
    ).toEqual({ dismissedPairs: 0 });
    const map = await getCorpusMap(t.db, w.project.id, query());
    expect(map.duplicates.clusters.map((c) => c.members.map((m) => m.slug).sort())).toEqual([
      ["archive", "library"],
    ]);
    const log = await findAuditLog(t.db, w.project.id, [
      { targetType: "ENVIRONMENT_VERSION", targetIds: [w.shop.currentVersionId!] },
    ]);
    expect(
      log.some((l) => l.decision === "COMMENT" && l.reason.includes("Not a duplicate of market v1")),
    ).toBe(true);
  });

  it("refuses to dismiss versions of another project", async () => {
    const w = await seedCorpus();
    const mine = await seedCorpus();
    const alice = actorOf(await createUser(t.db));
    await expect(
      dismissDuplicates(
        t.db,
        mine.project.id,
        { versionIds: [mine.shop.currentVersionId!, w.market.currentVersionId!], reason: "" },
        alice,
      ),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await t.db.duplicateDismissal.count({ where: { projectId: mine.project.id } })).toBe(0);
  });
});

describe("signatures", () => {
  it("are written in the transaction that creates a version (samples here; import, save and assembly alike)", async () => {
    const project = await createTestProject(t.db);
    await seedSamples(t.db, {
      projectId: project.id,
      samples: loadSamples().slice(0, 1),
      toolsFor: () => Promise.resolve([]),
    });
    const env = await t.db.environment.findFirstOrThrow({ where: { projectId: project.id } });
    const sig = await t.db.environmentSignature.findUniqueOrThrow({
      where: { environmentVersionId: env.currentVersionId! },
    });
    expect(sig.algorithm).toBe(SIGNATURE_ALGORITHM);
    expect(sig.codeMinhash).toHaveLength(64);
    expect(sig.bands.length).toBeGreaterThanOrEqual(16);
  });
});

describe("corpus map: coverage, leakage and splits", () => {
  it("counts tools on proven gold paths only, lists untested tools, finds leaks and splits by domain and tool count", async () => {
    const w = await seedCorpus();
    // Proven: calls check_in (leaks the guest's name: not an id, longer than 3 characters).
    const proven = await createScenario(t.db, w.hotel.id, {
      task: "Check in the guest Margaret Hale for tonight.",
      goldCalls: [{ name: "check_in", arguments: { guest: "Margaret Hale" } }],
    });
    await proveScenario(t.db, proven.id);
    // Unproven: its invoice call covers nothing; it names only an id (not a leak).
    const invoice = await createScenario(t.db, w.hotel.id, {
      task: "Send the invoice for guest G-1001.",
      goldCalls: [{ name: "invoice", arguments: { guest: "G-1001" } }],
    });
    // Rollouts on each scenario's current pins: 1 of 4 solved (hard), 2 of 2 (always solved); one
    // graded under other check versions does not count (it would make the second 2 of 3).
    for (const reward of [1, 0, 0.5, 0]) await createTrajectory(t.db, proven.id, { reward });
    for (const reward of [1, 1]) await createTrajectory(t.db, invoice.id, { reward });
    await createTrajectory(t.db, invoice.id, { reward: 0, validatorVersionIds: [] });
    const map = await getCorpusMap(t.db, w.project.id, query());
    const hotel = map.coverage.leastCovered.find((e) => e.slug === "hotel")!;
    expect(hotel).toMatchObject({ tools: 3, untested: ["cancel", "invoice"] });
    expect(map.coverage).toMatchObject({ tools: 19, covered: 1, environments: 7 });
    expect(map.coverage.byShare).toEqual([
      { label: "none", count: 6 },
      { label: "under half", count: 1 },
      { label: "half or more", count: 0 },
      { label: "all", count: 0 },
    ]);
    expect(map.leaks).toMatchObject({ total: 1, scanned: 2, page: 1, pageCount: 1 });
    expect(map.leaks.rows[0]).toMatchObject({
      scenarioId: proven.id,
      environmentSlug: "hotel",
      leaks: [{ call: "check_in", path: "guest", value: "margaret hale" }],
    });
    expect(map.splits.scenarios).toBe(2);
    expect(map.splits.byDomain).toEqual([{ label: "travel", count: 2 }]);
    expect(map.splits.byToolCount.find((b) => b.label === "1–3")).toEqual({ label: "1–3", count: 2 });
    expect(map.splits.byDifficulty).toEqual([
      { label: "no rollouts", count: 0 },
      { label: "never solved", count: 0 },
      { label: "hard (under 1/3)", count: 1 },
      { label: "medium (1/3–2/3)", count: 0 },
      { label: "easy (over 2/3)", count: 0 },
      { label: "always solved", count: 1 },
    ]);
  });

  it("scopes every part to one dataset version's pins", async () => {
    const w = await seedCorpus();
    await createScenario(t.db, w.library.id, {
      task: "Add the book Moby Dick",
      goldCalls: [{ name: "add_book", arguments: { book_name: "Moby Dick" } }],
    });
    await createScenario(t.db, w.archive.id);
    await createScenario(t.db, w.hotel.id);
    await acceptAndProveScenarios(t.db, w.project.id);
    const version = await createDatasetVersion(t.db, {
      projectId: w.project.id,
      name: "scoped",
      environments: [w.library.id, w.archive.id],
    });
    const map = await getCorpusMap(t.db, w.project.id, query({ dataset: version.id }));
    expect(map.scope).toMatchObject({ kind: "dataset", label: "scoped v1" });
    expect(map.environments).toBe(2);
    expect(map.duplicates.clusters.map((c) => c.members.map((m) => m.slug).sort())).toEqual([
      ["archive", "library"],
    ]);
    expect(map.splits.scenarios).toBe(2);
    expect(map.leaks.total).toBe(1);
    await expect(
      getCorpusMap(t.db, w.project.id, query({ dataset: "no-such-version" })),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("answers an empty project with empty parts", async () => {
    const project = await createTestProject(t.db);
    const map = await getCorpusMap(t.db, project.id, query());
    expect(map).toMatchObject({
      environments: 0,
      duplicates: { clusterCount: 0, clusters: [] },
      coverage: { tools: 0 },
      leaks: { total: 0 },
    });
    expect(map.splits.scenarios).toBe(0);
  });
});
