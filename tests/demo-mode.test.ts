/**
 * The offline demo (`npm start -- --demo`): its canned replies live in demo/ and nowhere in the
 * product. The script answers every stage a newcomer's walk through the pipeline reaches, and the
 * product (app/, components/, lib/ outside tests) never imports the demo or the test tiers' scripts.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createDemoScript } from "@/demo/llm-script";
import { loadSamples } from "@/prisma/seed/load-samples";
import type { ChatBody, FakeReply } from "@/tests/fake-openai/server";

const ROOT = path.resolve(import.meta.dirname, "..");

const ask = (stage: string, user: string): ChatBody => ({
  model: "demo-canned-replies",
  messages: [
    { role: "system", content: `[stage:${stage}] instructions` },
    { role: "user", content: user },
  ],
});

const contentOf = async (reply: FakeReply | Promise<FakeReply>) => {
  const r = await reply;
  return "content" in r ? (r.content ?? "") : JSON.stringify(r);
};

describe("the demo's canned replies", () => {
  it("answers the SkelBuilder stages from the sample an idea names", async () => {
    const script = createDemoScript();
    const topic = JSON.parse(
      await contentOf(script(ask("topic", "Task:\nBook a clinic appointment"), 0)),
    ) as {
      summary: string;
    };
    expect(topic.summary).toMatch(/clinic|appointment/i);
    const library = JSON.parse(await contentOf(script(ask("state", "A library lending desk"), 1))) as {
      entities: unknown[];
    };
    expect(library.entities.length).toBeGreaterThan(0);
  });

  it("answers the scenario stages for a generated environment's class", async () => {
    const script = createDemoScript();
    const state = await contentOf(script(ask("scen_state", "class LibraryLendingSystem:\n  ..."), 0));
    expect(state).toMatch(/^```json\n\{/);
    const task = await contentOf(script(ask("scen_task", "class LibraryLendingSystem"), 1));
    expect(task).toContain("# Task");
  });

  it("writes the task that belongs to the initial state in the prompt, whatever the order of requests", async () => {
    const script = createDemoScript();
    const sample = loadSamples().find((s) => s.slug === "library-lending")!;
    const [first, , third] = sample.scenarios;
    const prompt = (state: unknown) =>
      `# Environment\nclass LibraryLendingSystem\n\n# Initial state\n${JSON.stringify(state, null, 2)}`;
    expect(await contentOf(script(ask("scen_task", prompt(third!.init_config)), 0))).toContain(third!.task);
    expect(await contentOf(script(ask("scen_task", prompt(first!.init_config)), 1))).toContain(first!.task);
  });
});

function productFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .filter((f) => !f.includes(`${path.sep}generated${path.sep}`));
}

describe("the product holds no canned replies", () => {
  it("no file of app/, components/ or lib/ imports demo/ or the scripted test endpoint", () => {
    const offenders = ["app", "components", "lib"]
      .flatMap(productFiles)
      .filter((f) =>
        /from ["'](?:@\/|(?:\.\.\/)+)(?:demo\/|tests\/fake-openai)/.test(readFileSync(f, "utf8")),
      );
    expect(offenders.map((f) => path.relative(ROOT, f))).toEqual([]);
  });
});
