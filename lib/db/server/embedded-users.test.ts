/** Registrations of the processes using an embedded server: live ones count, dead ones are swept. */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { registerEmbeddedUser, releaseEmbeddedUser } from "./embedded-users";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "envstudio-users-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("embedded server users", () => {
  it("a leaving process sees the other live users, and files of dead processes are removed", () => {
    const dead = spawnSync("true").pid;
    const leaving = spawnSync("true").pid;
    registerEmbeddedUser(dir, process.pid);
    registerEmbeddedUser(dir, dead);
    registerEmbeddedUser(dir, leaving);
    expect(releaseEmbeddedUser(dir, leaving)).toEqual([process.pid]);
    expect(fs.readdirSync(path.join(dir, "pg-users"))).toEqual([String(process.pid)]);
    expect(releaseEmbeddedUser(dir, process.pid)).toEqual([]);
  });
});
