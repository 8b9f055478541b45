/**
 * `envstudio repair` through `main`, in-process, against a per-file test database (the default
 * project the CLI opens), the real sandbox and the scripted LLM endpoint: bad input exits non-zero
 * before any LLM request with nothing written; a run prints its summary last and exits 0.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { createSandboxRunner } from "@/lib/sandbox";
import { runValidatorProof } from "@/lib/scenarios/server/run-validator-proof";
import { createEnvironment } from "@/prisma/seed/factories";
import { seedSamples } from "@/prisma/seed/seed-samples";
import { useTestDatabase } from "@/tests/db";
import { type FakeOpenAi, stageOf, startFakeOpenAi } from "@/tests/fake-openai/server";
import { CHECKOUT_RIGHT } from "@/tests/repair/environment-defects";
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
    await createEnvironment(t.db, (await getDefaultProject(t.db)).id, { slug: "nothing-failing" });
    expect(await cli("repair", "--env", "nothing-failing")).toMatchObject({
      code: 1,
      err: expect.stringContaining(
        "nothing to repair: no item of environment nothing-failing is failing or a weak validator, and no quality probe of its code failed",
      ) as unknown,
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

  it("also repairs the code of an environment whose quality probe failed, and counts it", async () => {
    const env = await t.db.environment.findFirstOrThrow({ where: { slug: "library-lending" } });
    await t.db.qualityCheck.create({
      data: {
        environmentVersionId: env.currentVersionId!,
        testState: sample.scenarios[0]!.init_config as never,
        rounds: 1,
        probes: {
          create: [
            {
              index: 0,
              kind: "positive",
              toolName: "checkout_copy",
              arguments: { member_id: "M002", copy_id: "C001-1" },
              verdict: "FAIL",
              rationale: "The docstring does not say how long a loan lasts.",
            },
          ],
        },
      },
    });
    const documented = CHECKOUT_RIGHT.replace(
      "Lend a copy to a member for 21 days.",
      "Lend a copy to a member for 21 days (LOAN_DAYS).",
    );
    fake.setScript((body) => {
      const stage = stageOf(body);
      if (stage === "judge_call")
        return { content: JSON.stringify({ analysis: "ok", verdict: "PASS", error_reason: "" }) };
      return { content: answerWith(stage === "repair_environment" ? documented : right) };
    });
    const result = await cli("repair", "--env", "library-lending", "--model", "m-repair");
    expect(result.code).toBe(0);
    expect(result.out[0]).toContain(
      "repairing 2 item(s) (the code of 1 environment(s)) of environment library-lending",
    );
    expect(result.out.at(-1)).toMatch(
      /^repair succeeded: 2 item\(s\) tried \(1 environment\(s\)\), 2 proposal\(s\) proven, 0 proposal\(s\) failed/,
    );
    const proposal = await t.db.repairProposal.findFirstOrThrow({ where: { kind: "ENVIRONMENT" } });
    expect(proposal).toMatchObject({ status: "PROVEN", environmentVersionId: env.currentVersionId });
  });
});
