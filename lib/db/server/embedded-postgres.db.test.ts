/**
 * The embedded database (no DATABASE_URL): a real PostgreSQL from npm that keeps its data across
 * restarts, applies migrations, and works with the same Prisma client and with pg-boss (NOTIFY).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createDb } from "../index";
import { deployMigrations } from "../migrate";
import { startEmbeddedPostgres } from "./embedded-postgres";
import { defineJob } from "../../jobs/job-definition";
import { handlerFor, handlersOf } from "../../jobs/server/job-handler";
import { startWorker } from "../../jobs/worker";
import { freePort } from "../../../tests/free-port";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "envstudio-embedded-"));
fs.chmodSync(dataDir, 0o755); // the server runs as an unprivileged user when we are root

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe("embedded PostgreSQL", () => {
  it("starts, migrates, keeps data across a restart, and runs pg-boss jobs", async () => {
    const PORT = await freePort();
    const first = await startEmbeddedPostgres({ dataDir, port: PORT, database: "envstudio" });
    expect(first.startedByUs).toBe(true);
    expect(first.url).not.toContain(":postgres@"); // a generated password, not a default one
    expect(await deployMigrations(first.url)).toHaveLength(
      fs.readdirSync("prisma/migrations").filter((d) => !d.endsWith(".toml")).length,
    );
    let db = createDb(first.url, 2);
    await db.project.create({ data: { slug: "kept", name: "Survives restarts" } });
    await db.$disconnect();
    await first.stop();

    const second = await startEmbeddedPostgres({ dataDir, port: PORT, database: "envstudio" });
    expect(second.startedByUs).toBe(true);
    expect(await deployMigrations(second.url)).toEqual([]);
    db = createDb(second.url, 2);
    expect((await db.project.findUniqueOrThrow({ where: { slug: "kept" } })).name).toBe("Survives restarts");

    let handled = (_: string) => {};
    const seen = new Promise<string>((r) => (handled = r));
    const ping = defineJob({
      name: "test.embedded-ping",
      schema: z.object({ v: z.string() }),
      concurrency: 1,
      retryLimit: 0,
    });
    const worker = await startWorker(second.url, [ping], {
      db,
      loadHandler: handlersOf(handlerFor(ping, ({ v }) => Promise.resolve(handled(v)))),
    });
    try {
      await worker.queue.send(ping, { v: "pong" }, "ping-1");
      expect(await seen).toBe("pong");
    } finally {
      await worker.stop();
      await db.$disconnect();
      await second.stop();
    }
  }, 120_000);

  it("works when the data directory is private to root (cluster kept outside, linked from it)", async () => {
    const privateParent = fs.mkdtempSync(path.join(os.tmpdir(), "envstudio-private-"));
    fs.chmodSync(privateParent, 0o700);
    const fallbackRoot = fs.mkdtempSync(path.join(os.tmpdir(), "envstudio-fallback-"));
    fs.chmodSync(fallbackRoot, 0o755);
    process.env.ENVSTUDIO_PG_FALLBACK_ROOT = fallbackRoot;
    const dir = path.join(privateParent, "data");
    const port = await freePort();
    try {
      for (const round of [1, 2]) {
        const server = await startEmbeddedPostgres({ dataDir: dir, port, database: "envstudio" });
        const db = createDb(server.url, 1);
        if (round === 1)
          await db.$executeRawUnsafe("create table kept (v text); insert into kept values ('yes')");
        expect(await db.$queryRawUnsafe("select v from kept")).toEqual([{ v: "yes" }]);
        await db.$disconnect();
        await server.stop();
      }
      expect(fs.existsSync(path.join(dir, "pg", "PG_VERSION"))).toBe(true);
    } finally {
      delete process.env.ENVSTUDIO_PG_FALLBACK_ROOT;
      fs.rmSync(privateParent, { recursive: true, force: true });
      fs.rmSync(fallbackRoot, { recursive: true, force: true });
    }
  }, 120_000);

  it("reports a clear error when its port is taken by something else", async () => {
    const net = await import("node:net");
    const blocker = net.createServer();
    const port = await freePort();
    await new Promise<void>((r) => blocker.listen(port, "127.0.0.1", r));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "envstudio-embedded-busy-"));
    fs.chmodSync(dir, 0o755);
    try {
      await expect(startEmbeddedPostgres({ dataDir: dir, port, database: "envstudio" })).rejects.toThrow(
        new RegExp(`Port ${port} is in use`),
      );
    } finally {
      blocker.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
