/**
 * TEST ONLY. What the repair cores' tests share: a sandbox and a scripted model that live as long
 * as the test file, answers given in turn, and the re-asks the model saw.
 */
import { afterAll, beforeAll } from "vitest";
import { createSandboxRunner } from "@/lib/sandbox";
import { type FakeOpenAi, lastUserText, startFakeOpenAi } from "@/tests/fake-openai/server";
import { GARBAGE } from "./defect-corpus";

export function useRepairHarness() {
  const sandbox = createSandboxRunner();
  let fake: FakeOpenAi | undefined;
  beforeAll(async () => void (fake = await startFakeOpenAi()));
  afterAll(async () => {
    await fake?.close();
    await sandbox.close();
  });
  return {
    sandbox,
    get fake(): FakeOpenAi {
      if (!fake) throw new Error("the scripted model starts in beforeAll");
      return fake;
    },
  };
}

/** The model answers `answers` one per request, in order, and garbage once they run out. */
export function answerInTurn(fake: FakeOpenAi, answers: string[]): void {
  let n = 0;
  fake.setScript(() => ({ content: answers[n++] ?? GARBAGE }));
}

/** The last user message of each of the latest `count` requests, oldest first. */
export const latestAsks = (fake: FakeOpenAi, count: number): string[] =>
  fake
    .chatRequests()
    .slice(-count)
    .map((r) => lastUserText(r.body as never));
