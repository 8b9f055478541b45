/**
 * `envstudio repair` through `main`, in-process, against a per-file test database (the default
 * project the CLI opens), the real sandbox and the scripted LLM endpoint: bad input exits non-zero
 * before any LLM request with nothing written; a run prints its summary last and exits 0.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { createSandboxRunner } from "@/lib/sandbox";
import { runValidatorProof } from "@/lib/scenarios/server/run-validator-proof";
import { seedSamples } from "@/prisma/seed/seed-samples";
import { useTestDatabase } from "@/tests/db";
import { type FakeOpenAi, startFakeOpenAi } from "@/tests/fake-openai/server";
import { CHECK_DEFECTS, answerWith, defectSubject } from "@/tests/repair/defect-corpus";
import { main } from "./main";

const t = useTestDatabase();
const sandbox = createSandboxRunner();
const defect = CHECK_DEFECTS[0]!;
const { sample, right } = defectSubject(defect);
let fake: FakeOpenAi;
let scenarioId = "";
let healthyId = "";

beforeAll(async () => {
  fake = await startFakeOpenAi();
  // Read once by the CLI's LLM configuration: set before the first command.
  process.env.DATABASE_URL = t.url;
  process.env.OPENAI_BASE_URL = fake.url;
  const project = await getDefaultProject(t.db);
  await seedSamples(t.db, { projectId: project.id, samples: [sample], toolsFor: () => Promise.resolve([]) });
  const scenarios = await t.db.scenario.findMany({ orderBy: { externalId: "asc" } });
  scenarioId = scenarios[defect.scenario]!.id;
  healthyId = scenarios[1]!.id;
  const validator = await t.db.validator.findFirstOrThrow({
    where: { scenarioId, position: defect.position },
  });
  await t.db.validatorVersion.update({
    where: { id: validator.currentVersionId! },
    data: { code: defect.broken },
  });
  for (const id of [scenarioId, healthyId]) await runValidatorProof(t.db, { scenarioId: id }, { sandbox });
});
afterAll(async () => {
  await fake?.close();
  await sandbox.close();
});

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err: err.join("\n") };
}

const nothingSpent = async () => ({
  runs: await t.db.pipelineRun.count({ where: { kind: "REPAIR" } }),
  asked: fake.chatRequests().length,
});

describe("envstudio repair", () => {
  it("refuses bad input before any LLM request, with nothing written", async () => {
    const before = await nothingSpent();
    expect(await cli("repair")).toMatchObject({
      code: 2,
      err: expect.stringContaining("name exactly one of") as unknown,
    });
    expect(await cli("repair", "--env", "library-lending", "--scenario", "x")).toMatchObject({ code: 2 });
    expect(await cli("repair", "--env", "library-lending", "--max-cost", "0")).toMatchObject({
      code: 2,
      err: expect.stringContaining("--max-cost must be a positive number of USD (got 0)") as unknown,
    });
    expect(await cli("repair", "--env", "no-such-env")).toMatchObject({
      code: 1,
      err: expect.stringContaining('There is no environment with the env_id "no-such-env"') as unknown,
    });
    expect(await cli("repair", "--dataset", "no-such-dataset")).toMatchObject({ code: 1 });
    expect(await cli("repair", "--scenario", "no-such-scenario")).toMatchObject({ code: 1 });
    expect(await cli("repair", "--scenario", healthyId)).toMatchObject({
      code: 1,
      err: expect.stringContaining("its proof passes: nothing to repair") as unknown,
    });
    expect(await nothingSpent()).toEqual(before);
  });

  it("runs the repair, waits for it and prints the summary last", async () => {
    fake.setScript(() => ({ content: answerWith(right, "It read `state`.") }));
    const result = await cli("repair", "--env", "library-lending", "--model", "m-repair");
    expect(result.code).toBe(0);
    expect(result.out.at(-1)).toMatch(
      /^repair succeeded: 1 item\(s\) tried, 1 proposal\(s\) proven, 0 proposal\(s\) failed, cost \$\d+\.\d+/,
    );
    const proposal = await t.db.repairProposal.findFirstOrThrow({ where: { scenarioId } });
    expect(proposal).toMatchObject({ status: "PROVEN", model: "m-repair" });
  });
});
