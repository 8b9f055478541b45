import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/db";
import { createPipelineScript } from "@/tests/fake-openai/pipeline-script";
import { loadSampleEnv } from "@/tests/fake-openai/sample-env";
import { type FakeOpenAi, startFakeOpenAi } from "@/tests/fake-openai/server";
import { useFakeEndpoint } from "@/tests/pipeline-harness";
import { main } from "./main";
import { runPipelineCommand } from "./pipeline-command";

const t = useTestDatabase();
const dir = mkdtempSync(path.join(tmpdir(), "envstudio-cli-"));
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};
let fake: FakeOpenAi;

beforeAll(async () => {
  fake = await startFakeOpenAi({
    script: createPipelineScript([
      loadSampleEnv("library-lending", { operations: ["get_member", "pay_fines"] }),
    ]),
  });
  useFakeEndpoint(fake.url);
  process.env.DATABASE_URL = t.url;
});
afterAll(async () => {
  await fake?.close();
});

async function cli(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runPipelineCommand(
    argv,
    { out: (l) => out.push(l), err: (l) => err.push(l) },
    { pollMs: 200 },
  );
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/** Usage mistakes are reported by the CLI entry, as for every command. */
async function cliMain(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(["pipeline", ...argv], { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("envstudio pipeline run", () => {
  it("rejects missing and malformed inputs with one clear line, the usage and exit code 2", async () => {
    expect(await cliMain(["run"])).toMatchObject({
      code: 2,
      err: expect.stringContaining("give exactly one of --ideas FILE or --tasks FILE") as unknown,
    });
    expect(await cliMain(["run", "--ideas", path.join(dir, "nope.txt")])).toMatchObject({
      code: 2,
      err: expect.stringContaining("--ideas: file not found") as unknown,
    });
    expect(await cliMain(["run", "--tasks", file("bad.jsonl", '"ok"\n{broken')])).toMatchObject({
      code: 2,
      err: expect.stringContaining("line 2 is not valid JSON") as unknown,
    });
    expect(await cliMain(["run", "--tasks", file("objs.json", '[{"query": "renew"}]')])).toMatchObject({
      code: 2,
      err: expect.stringContaining("pick the text field (one of: query)") as unknown,
    });
    expect(await cliMain(["run", "--ideas", file("i.txt", "x"), "--rounds", "0"])).toMatchObject({
      code: 2,
      err: expect.stringContaining("--rounds must be a positive integer") as unknown,
    });
    expect(await cliMain(["run", "--ideas", file("i2.txt", "x"), "--models", "bogus=m"])).toMatchObject({
      code: 2,
      err: expect.stringContaining("unknown stage 'bogus'") as unknown,
    });
    expect(await cliMain(["frobnicate"])).toMatchObject({
      code: 2,
      err: expect.stringContaining("unknown verb 'frobnicate'") as unknown,
    });
    expect((await cliMain(["run"])).err).toContain("usage:\n  envstudio pipeline run (--ideas ideas.txt");
  });

  it("refuses --max-cost on a model without a price before opening the database, with nothing written", async () => {
    const runs = await t.db.pipelineRun.count();
    const result = await cliMain([
      "run",
      "--ideas",
      file("budget.txt", "A desk"),
      "--models",
      "gpt-4o",
      "--max-cost",
      "3",
    ]);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(
      /^envstudio pipeline: A cost budget needs a price for every model the run uses; gpt-4o has none, so its calls would count as \$0 and the budget of \$3 would never stop the run\. Add it to LLM_PRICES/,
    );
    expect(result.out).toBe("");
    expect(await t.db.pipelineRun.count()).toBe(runs);
  });

  it("runs ideas headless with an in-process worker and prints progress", async () => {
    const result = await cli([
      "run",
      "--ideas",
      file("ideas.txt", "A library lending desk\n\n"),
      "--rounds",
      "2",
      "--models",
      "m-cli",
    ]);
    // m-cli has no price: said when the run starts and again under the cost it could not count.
    expect(result.err.split("\n")).toEqual([
      "warning: no price for m-cli: its calls count as $0 (set LLM_PRICES, USD per million tokens)",
      "warning: cost understated: no price for m-cli: its calls count as $0 (set LLM_PRICES, USD per million tokens)",
    ]);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/run \w+ started \(Library lending desk\)/);
    expect(result.out).toMatch(
      /succeeded · state 1\/1 · state_code 1\/1 · operations 1\/1 · methods 1\/1 · assemble 1\/1 · test_state 1\/1 · quality 1\/1/,
    );
    expect(result.out).toMatch(/environment Library lending desk \(\w+\): in_review, 2 tools/);
    const run = await t.db.pipelineRun.findFirstOrThrow({ orderBy: { createdAt: "desc" } });
    expect((run.config as { models: { code: string } }).models.code).toBe("m-cli");
  });
});
