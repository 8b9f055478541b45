/**
 * Topic dedup with an embeddings model, through the real job path and the official SDK against the
 * scripted endpoint's /v1/embeddings: clusters must follow the vectors, not the wording, be stored
 * and visible, and an embeddings failure must be retried or recorded — never leave a run stuck.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningWorker } from "@/lib/jobs/worker";
import { createTestProject } from "@/prisma/seed/factories";
import { useTestDatabase } from "@/tests/db";
import { createPipelineScript, withFaults } from "@/tests/fake-openai/pipeline-script";
import { loadSampleEnv } from "@/tests/fake-openai/sample-env";
import { type EmbedScript, type FakeOpenAi, promptText, startFakeOpenAi } from "@/tests/fake-openai/server";
import type { Topic } from "../pipeline.schema";
import { jaccardEstimate, minhashSignature } from "../stages/similarity";
import { startPipelineWorker, testRunConfig, useFakeEndpoint, waitForRun } from "@/tests/pipeline-harness";
import { createRun } from "./create-run";
import { getStepArtifacts } from "./get-run";

const t = useTestDatabase();
const library = loadSampleEnv("library-lending", { operations: ["get_member", "list_member_loans"] });

/**
 * Four tasks and the topic each one is mined into. The library pair shares no wording but means the
 * same; the clinic pair differs by one word but (in this script) means something else entirely.
 */
const TOPICS: Record<string, Omit<Topic, "task" | "analysis">> = {
  "renew my loan": {
    summary: "Library lending desk",
    introduction: "Members borrow and return books; loans have due dates and fines.",
    usefulness: 8,
    modelability: 8,
  },
  "check out a volume": {
    summary: "Circulation counter for patrons",
    introduction: "Patrons take volumes home and bring them back before they are overdue.",
    usefulness: 8,
    modelability: 9,
  },
  "book a visit": {
    summary: "Clinic appointment scheduling",
    domain: "Healthcare",
    introduction: "Patients book, move and cancel appointments with doctors at a clinic.",
    usefulness: 8,
    modelability: 8,
  },
  "book a vaccination": {
    summary: "Clinic appointment scheduling system",
    domain: "Healthcare",
    introduction: "Patients book, move and cancel appointments with doctors at a clinic.",
    usefulness: 8,
    modelability: 8,
  },
};
/** Each run words its tasks differently (a suffix the topics repeat), so no run is served from the cache. */
const tasksFor = (suffix: string) => Object.keys(TOPICS).map((k) => `Please ${k} for me${suffix}`);
const topicKey = (text: string) => Object.keys(TOPICS).find((k) => text.includes(k));

/** Vectors by meaning: both library topics point the same way; the two clinic topics are orthogonal. */
const byMeaning: EmbedScript = (input) =>
  input.map((text) => {
    if (text.startsWith("Library lending desk")) return [1, 0, 0];
    if (text.startsWith("Circulation counter")) return [0.999, 0.045, 0];
    if (text.startsWith("Clinic appointment scheduling system")) return [0, 0, 1];
    return [0, 1, 0];
  });

const script = withFaults(createPipelineScript([library]), (body, stage) => {
  const text = promptText(body);
  const key = stage === "topic" ? topicKey(text) : undefined;
  if (!key) return null;
  const suffix = /for me(.*)$/m.exec(text)?.[1] ?? "";
  return {
    content: JSON.stringify({
      analysis: "scripted",
      ...TOPICS[key],
      introduction: `${TOPICS[key]!.introduction}${suffix}`,
    }),
  };
});

let fake: FakeOpenAi;
let worker: RunningWorker;
beforeAll(async () => {
  fake = await startFakeOpenAi({ script });
  useFakeEndpoint(fake.url);
  worker = await startPipelineWorker(t.db, t.url);
});
afterAll(async () => {
  await worker?.stop();
  await fake?.close();
});

const embeddingsConfig = () => testRunConfig({ qualityRounds: 1, models: { embedding: "m-embed" } });
const subjectOf = (phrase: string) => `task:${String(Object.keys(TOPICS).indexOf(phrase)).padStart(5, "0")}`;

describe("topic dedup with OpenAI-compatible embeddings", () => {
  it("clusters by the embeddings, stores the clusters and shows them on the run", async () => {
    fake.setEmbeddings(byMeaning);
    const project = await createTestProject(t.db);
    const from = fake.embeddingRequests().length;
    const run = await createRun(t.db, worker.queue, {
      projectId: project.id,
      input: { kind: "tasks", tasks: tasksFor("") },
      config: embeddingsConfig(),
    });
    const done = await waitForRun(t.db, run.id);
    expect(done.run.status).toBe("SUCCEEDED");
    expect(done.failures).toEqual([]);

    // One request through the SDK, with every topic that passed the thresholds.
    const [request, ...more] = fake.embeddingRequests().slice(from);
    expect(more).toEqual([]);
    expect(request?.body).toMatchObject({
      model: "m-embed",
      encoding_format: "float",
      input: expect.arrayContaining([expect.stringMatching(/^Library lending desk: /)]) as unknown,
    });
    expect((request?.body as { input: string[] }).input).toHaveLength(4);

    // The library pair merged (the better-scored one kept); the clinic pair stayed apart.
    const [libraryA, libraryB, clinicA, clinicB] = Object.keys(TOPICS).map(subjectOf);
    const select = await t.db.pipelineStep.findUniqueOrThrow({
      where: { runId_subjectKey_stage: { runId: run.id, subjectKey: "run", stage: "select" } },
    });
    const artifacts = await getStepArtifacts(t.db, select.id);
    expect(artifacts.output).toMatchObject({ method: "embeddings" });
    const clusters = (artifacts.output as { clusters: { members: string[]; kept: string }[] }).clusters.map(
      (c) => ({ members: [...c.members].sort(), kept: c.kept }),
    );
    expect(clusters).toEqual(
      expect.arrayContaining([
        { members: [libraryA, libraryB], kept: libraryB },
        { members: [clinicA], kept: clinicA },
        { members: [clinicB], kept: clinicB },
      ]),
    );
    expect(clusters).toHaveLength(3);
    expect(artifacts.llmCalls).toEqual([
      expect.objectContaining({ model: "m-embed", purpose: "embeddings", cached: false, promptTokens: 40 }),
    ]);

    // Stored per topic and shown on the run page: cluster, kept, and one environment per cluster.
    const shown = Object.fromEntries(
      done.topics.map((x) => [x.summary, { clusterKey: x.clusterKey, kept: x.kept }]),
    );
    expect(shown).toEqual({
      "Library lending desk": { clusterKey: libraryB, kept: false },
      "Circulation counter for patrons": { clusterKey: libraryB, kept: true },
      "Clinic appointment scheduling": { clusterKey: clinicA, kept: true },
      "Clinic appointment scheduling system": { clusterKey: clinicB, kept: true },
    });
    expect(done.environments.map((e) => e.name).sort()).toEqual([
      "Circulation counter for patrons",
      "Clinic appointment scheduling",
      "Clinic appointment scheduling system",
    ]);
    // The domain the topic stage inferred is stored; a topic without one gets its state stage's.
    const domains = await t.db.environment.findMany({
      where: { runId: done.run.id },
      select: { name: true, domain: true },
      orderBy: { name: "asc" },
    });
    expect(domains.map((e) => [e.name, e.domain])).toEqual([
      ["Circulation counter for patrons", "library services"],
      ["Clinic appointment scheduling", "healthcare"],
      ["Clinic appointment scheduling system", "healthcare"],
    ]);
  });

  it("uses topics whose wording says the opposite of their vectors", () => {
    // MinHash over the same texts would keep the reworded library pair apart and merge the clinic
    // pair: the clusters above came from the vectors, not from the wording.
    const signature = (phrase: string) =>
      minhashSignature(`${TOPICS[phrase]!.summary}: ${TOPICS[phrase]!.introduction}`);
    expect(jaccardEstimate(signature("renew my loan"), signature("check out a volume"))).toBeLessThan(0.6);
    expect(
      jaccardEstimate(signature("book a visit"), signature("book a vaccination")),
    ).toBeGreaterThanOrEqual(0.6);
  });

  it("retries a failing embeddings request and still clusters by the vectors", async () => {
    let calls = 0;
    fake.setEmbeddings((input, index, model) =>
      ++calls === 1 ? { status: 503, message: "embeddings overloaded" } : byMeaning(input, index, model),
    );
    const project = await createTestProject(t.db);
    const run = await createRun(t.db, worker.queue, {
      projectId: project.id,
      name: "retry",
      input: { kind: "tasks", tasks: tasksFor(" (again)") },
      config: embeddingsConfig(),
    });
    const done = await waitForRun(t.db, run.id);
    expect(done.run.status).toBe("SUCCEEDED");
    expect(calls).toBe(2);
    const call = await t.db.llmCall.findFirstOrThrow({ where: { runId: run.id, purpose: "embeddings" } });
    expect(call).toMatchObject({ attempts: 2, errorMessage: null, cached: false });
    expect(done.environments).toHaveLength(3);
  });

  it("records a permanent embeddings failure on the selection step and ends the run", async () => {
    fake.setEmbeddings(() => ({ status: 404, message: "The model `m-embed` does not exist" }));
    const project = await createTestProject(t.db);
    const run = await createRun(t.db, worker.queue, {
      projectId: project.id,
      name: "no model",
      input: { kind: "tasks", tasks: tasksFor(" (third time)") },
      config: embeddingsConfig(),
    });
    const done = await waitForRun(t.db, run.id);
    fake.setEmbeddings(byMeaning);
    expect(done.failures).toEqual([
      expect.objectContaining({
        stage: "select",
        status: "FAILED",
        errorCode: "BAD_REQUEST",
        retryable: false,
        attempt: 1,
      }),
    ]);
    expect(done.failures[0]!.errorMessage).toMatch(/HTTP 404: .*m-embed/);
    expect(done.run.status).toBe("FAILED");
    expect(done.run.errorMessage).toMatch(
      /^1 step failed and no environment was built; first \(select\): HTTP 404/,
    );
    expect(done.environments).toEqual([]);
    expect(done.stages.every((s) => s.pending === 0 && s.running === 0)).toBe(true);
  });
});
