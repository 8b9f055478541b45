/**
 * PostgreSQL restarted in the middle of `envstudio pipeline run`, on a dedicated embedded server
 * (never the shared test server): the follow loop says so on stderr, waits, and reports the
 * finished run; answers that arrived while the database was away were held and stored, so no
 * received answer was asked for again, and the ledger matches what the endpoint saw.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalJson } from "@/lib/llm";
import { createDb } from "@/lib/db";
import { deployMigrations } from "@/lib/db/migrate";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "@/lib/db/server/embedded-postgres";
import { getLlmAccounting } from "@/lib/runs/server/llm-accounting";
import { createPipelineScript } from "@/tests/fake-openai/pipeline-script";
import { loadSampleEnv } from "@/tests/fake-openai/sample-env";
import { type FakeOpenAi, startFakeOpenAi } from "@/tests/fake-openai/server";
import { freePort } from "@/tests/free-port";
import { useFakeEndpoint } from "@/tests/pipeline-harness";
import { runPipelineCommand } from "./pipeline-command";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "envstudio-restart-"));
fs.chmodSync(dataDir, 0o755); // the server runs as an unprivileged user when we are root
let pg: EmbeddedPostgres;
let port: number;
let fake: FakeOpenAi;

beforeAll(async () => {
  port = await freePort();
  pg = await startEmbeddedPostgres({ dataDir, port, database: "envstudio" });
  await deployMigrations(pg.url);
  fake = await startFakeOpenAi({
    script: createPipelineScript([
      loadSampleEnv("library-lending", { operations: ["get_member", "renew_loan", "pay_fines"] }),
    ]),
    latencyMs: 250,
  });
  useFakeEndpoint(fake.url);
  process.env.DATABASE_URL = pg.url;
  process.env.JOBS_SUPERVISE_SECONDS = "2";
}, 120_000);
afterAll(async () => {
  await fake?.close();
  await pg?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("a database restart in the middle of a run", () => {
  it(
    "is outlived by the CLI follow loop, and no received answer is asked for again",
    { timeout: 180_000 },
    async () => {
      const ideas = path.join(dataDir, "ideas.txt");
      fs.writeFileSync(ideas, "A library lending desk\nA branch library front desk\n");
      const out: string[] = [];
      const err: string[] = [];
      const command = runPipelineCommand(
        ["run", "--ideas", ideas, "--rounds", "3", "--db-wait", "120"],
        { out: (l) => out.push(l), err: (l) => err.push(l) },
        { pollMs: 200 },
      );

      // Mid-run (calls answered, one in flight), stop the server, keep it down, start it again.
      const inFlight = () => fake.chatRequests().some((r) => r.respondedAt === undefined);
      for (const deadline = Date.now() + 60_000; fake.chatRequests().length < 8 || !inFlight();) {
        if (Date.now() > deadline) throw new Error(`the run did not get going: ${err.join("\n")}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const stoppingAt = Date.now();
      await pg.stop();
      const downAt = fake.chatRequests().length;
      await new Promise((r) => setTimeout(r, 2_500));
      pg = await startEmbeddedPostgres({ dataDir, port, database: "envstudio" });
      const upAt = Date.now();

      const code = await command;
      expect(code, `${out.join("\n")}\n${err.join("\n")}`).toBe(0);
      expect(err.join("\n")).toMatch(/database error while following the run \(.+\); retrying in/);
      expect(err.join("\n")).toMatch(/database reachable again after/);
      expect(out.join("\n")).toMatch(/succeeded · state 2\/2 .* quality 2\/2/);
      expect(out.join("\n")).toMatch(
        /LLM: \d+ requests sent · \d+ answers used · 0 rejected · 0 error responses · 0 answers lost/,
      );
      expect(fake.chatRequests().length).toBeGreaterThan(downAt); // the run really went on after the restart

      // Answers did arrive while the database was away (and were held, not thrown away):
      expect(
        fake
          .chatRequests()
          .filter((r) => r.respondedAt !== undefined && r.respondedAt >= stoppingAt && r.respondedAt <= upAt)
          .length,
      ).toBeGreaterThan(0);
      // No answer the endpoint gave was asked for again: every answered request body is unique.
      const answered = fake
        .chatRequests()
        .filter((r) => r.status === 200)
        .map((r) => canonicalJson(r.body));
      expect(answered.length).toBe(fake.chatRequests().length);
      expect(new Set(answered).size).toBe(answered.length);
      // And the studio's ledger is the endpoint's.
      const db = createDb(pg.url, 2);
      try {
        const run = await db.pipelineRun.findFirstOrThrow({ orderBy: { createdAt: "desc" } });
        const llm = await getLlmAccounting(db, run.id);
        expect(llm).toMatchObject({
          requestsSent: fake.chatRequests().length,
          answersUsed: fake.chatRequests().length,
          answersLost: 0,
          inFlight: 0,
        });
      } finally {
        await db.$disconnect();
      }
    },
  );
});
