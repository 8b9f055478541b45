/**
 * The CLI as separate processes beside an embedded PostgreSQL that another process (here: this
 * test, as `npm start` would) started: `envstudio pipeline run` with its in-process worker, and
 * `npm run db:status`, must leave that server running and must exit by themselves when done. A
 * process that started the server itself, with nobody else using it, stops it when it leaves.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "@/lib/db/server/embedded-postgres";
import { checkConnection } from "@/lib/db/server/resolve-database";
import { freePort } from "@/tests/free-port";
import { createPipelineScript } from "@/tests/fake-openai/pipeline-script";
import { loadSampleEnv } from "@/tests/fake-openai/sample-env";
import { type FakeOpenAi, startFakeOpenAi } from "@/tests/fake-openai/server";

const ROOT = path.resolve(import.meta.dirname, "../..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "envstudio-cli-shared-"));
fs.chmodSync(dataDir, 0o755); // as root, the server runs as an unprivileged user
let port = 0;
let server: EmbeddedPostgres;
let fake: FakeOpenAi;

beforeAll(async () => {
  port = await freePort();
  server = await startEmbeddedPostgres({ dataDir, port, database: "envstudio" });
  fake = await startFakeOpenAi({
    script: createPipelineScript([
      loadSampleEnv("library-lending", { operations: ["get_member", "pay_fines"] }),
    ]),
  });
}, 120_000);
afterAll(async () => {
  await fake?.close();
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Environment of a CLI started next to the studio: no DATABASE_URL, the studio's data directory. */
function cliEnv(dir: string, pgPort: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ENVSTUDIO_DATA_DIR: dir,
    ENVSTUDIO_PG_PORT: String(pgPort),
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: "test",
    LLM_RETRY_BASE_MS: "10",
  };
  delete env.DATABASE_URL;
  return env;
}

/**
 * Runs a command and waits for it to exit on its own. The guard only turns a hang into a failure
 * with the output attached; it is not a timing threshold.
 */
function runToExit(
  args: string[],
  env: NodeJS.ProcessEnv,
  guardMs = 240_000,
): Promise<{ code: number | null; exitedByItself: boolean; output: string }> {
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  return new Promise((resolve) => {
    const guard = setTimeout(() => {
      child.kill("SIGKILL");
      resolve({ code: null, exitedByItself: false, output });
    }, guardMs);
    child.once("exit", (code) => {
      clearTimeout(guard);
      resolve({ code, exitedByItself: true, output });
    });
  });
}

const isUp = async (url: string) =>
  checkConnection(url, 3000).then(
    () => true,
    () => false,
  );

describe("CLI processes and a shared embedded database", () => {
  it("`envstudio pipeline run` (in-process worker) finishes, exits by itself, and leaves the studio's database running", async () => {
    const ideas = path.join(dataDir, "ideas.txt");
    fs.writeFileSync(ideas, "A library lending desk\n");
    const result = await runToExit(
      ["bin/envstudio.mjs", "pipeline", "run", "--ideas", ideas, "--rounds", "2", "--models", "m-cli"],
      cliEnv(dataDir, port),
    );
    expect(result.exitedByItself, result.output).toBe(true);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/environment Library lending desk \(\w+\): in_review/);
    expect(await isUp(server.url)).toBe(true);
  }, 300_000);

  it("`npm run db:status` exits and leaves the studio's database running", async () => {
    const result = await runToExit(["--import", "tsx", "scripts/db.ts", "status"], cliEnv(dataDir, port));
    expect(result.exitedByItself, result.output).toBe(true);
    expect(result.code, result.output).toBe(0);
    expect(await isUp(server.url)).toBe(true);
  }, 120_000);

  it("`envstudio import` (which proves in the sandbox) and `envstudio dataset list` exit by themselves", async () => {
    const notes = path.join(dataDir, "notes");
    fs.mkdirSync(notes, { recursive: true });
    fs.writeFileSync(
      path.join(notes, "environment.py"),
      'class Notes:\n    def __init__(self):\n        self.notes = {}\n\n    def list_notes(self) -> dict:\n        """List notes."""\n        return {\'success\': True, \'data\': self.notes}\n',
    );
    fs.writeFileSync(
      path.join(notes, "scenarios.json"),
      JSON.stringify([
        {
          task_id: "n1",
          init_config: { notes: {} },
          task: "List the notes.",
          checklist_with_func: [
            {
              check_item: "Empty?",
              check_func: "def check_func(final_state):\n    return final_state['notes'] == {}\n",
            },
          ],
        },
      ]),
    );
    // No DATABASE_URL: they find the studio's embedded server through ENVSTUDIO_DATA_DIR.
    const env = cliEnv(dataDir, port);
    const imported = await runToExit(["bin/envstudio.mjs", "import", notes], env);
    expect(imported.exitedByItself, imported.output).toBe(true);
    expect(imported.code, imported.output).toBe(0);
    expect(imported.output).toMatch(/proved in the sandbox/);
    const listed = await runToExit(["bin/envstudio.mjs", "dataset", "list"], env);
    expect(listed.exitedByItself, listed.output).toBe(true);
    expect(listed.code, listed.output).toBe(0);
    expect(await isUp(server.url)).toBe(true);
  }, 120_000);

  it("a CLI that started the embedded server itself, with nobody else using it, stops it when it leaves", async () => {
    const own = fs.mkdtempSync(path.join(os.tmpdir(), "envstudio-cli-own-"));
    fs.chmodSync(own, 0o755);
    const ownPort = await freePort();
    try {
      const result = await runToExit(["--import", "tsx", "scripts/db.ts", "status"], cliEnv(own, ownPort));
      expect(result.exitedByItself, result.output).toBe(true);
      expect(result.code, result.output).toBe(0);
      const password = fs.readFileSync(path.join(own, "pg-password"), "utf8").trim();
      expect(
        await isUp(`postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${ownPort}/postgres`),
      ).toBe(false);
    } finally {
      fs.rmSync(own, { recursive: true, force: true });
    }
  }, 120_000);
});
