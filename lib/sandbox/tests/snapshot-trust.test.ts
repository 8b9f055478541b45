// The memory snapshot is an interpreter image: workers must boot only from one in a folder and
// file that no other user could have written, and only with the bytes the server checked.
// Evidence is the booted interpreter itself: a planted snapshot marks `builtins`, and a tool
// reports whether the mark is there.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandboxRunner } from "../index";
import { HostProcess } from "../host-process";
import { resolveHostNode } from "../host-node";
import { defaultOptions } from "../options";
import { pyodideDir, snapshotFile } from "../paths";
import { checkSnapshot, untrustedCacheDir, userCacheDir } from "../snapshot-trust";

const root = mkdtempSync(join(tmpdir(), "envstudio-snapshot-trust-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const OTHER_UID = 65534;
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
/** Why the file was refused ("" when it was accepted). */
function refusal(file: string): string {
  const checked = checkSnapshot(file);
  return checked.ok ? "" : checked.reason;
}

/** A real Pyodide snapshot whose `builtins` carries ENVSTUDIO_PLANTED. */
function buildPlantedSnapshot(path: string): void {
  const script = join(root, "plant.mjs");
  writeFileSync(
    script,
    `import { loadPyodide } from ${JSON.stringify(`${pyodideDir()}/pyodide.mjs`)};
import { writeFileSync } from "node:fs";
const py = await loadPyodide({ _makeSnapshot: true, stdout: () => {}, stderr: () => {} });
py.runPython("import builtins; builtins.ENVSTUDIO_PLANTED = True");
writeFileSync(process.argv[2], py.makeMemorySnapshot(), { mode: 0o600 });`,
  );
  execFileSync(resolveHostNode(undefined).path, [script, path], { stdio: "ignore", timeout: 120_000 });
}

const planted = join(root, "planted.snapshot");
beforeAll(() => buildPlantedSnapshot(planted), 120_000);
const PROBE = `class Env:
    def __init__(self, config=None):
        pass

    def planted(self) -> bool:
        """Whether the interpreter booted from the planted image."""
        import builtins
        return hasattr(builtins, "ENVSTUDIO_PLANTED")
`;

/** A cache folder holding the planted snapshot under the name workers look for. */
function cacheWithPlant(name: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { mode: 0o700 });
  execFileSync("cp", [planted, snapshotFile(dir, pyodideDir())]);
  return dir;
}

async function bootedPlanted(cacheDir: string): Promise<boolean> {
  const runner = createSandboxRunner({ hostInBwrap: "off", poolSize: 1, spareWorkers: 0, cacheDir });
  try {
    const loaded = await runner.load({ source: PROBE, className: "Env", initialState: {} });
    if (!loaded.ok) throw new Error(loaded.error.message);
    const step = await loaded.value.step("planted", {});
    await loaded.value.close();
    if (!step.ok) throw new Error(step.error.message);
    return step.value.observation === true;
  } finally {
    await runner.close();
  }
}

describe("cache folder and file checks", () => {
  it("accepts a private folder and creates a missing one 0700", () => {
    const dir = join(root, "fresh", "sandbox");
    expect(untrustedCacheDir(dir)).toBeNull();
    writeFileSync(join(dir, "x.snapshot"), "bytes", { mode: 0o600 });
    expect(checkSnapshot(join(dir, "x.snapshot"))).toEqual({
      ok: true,
      sha256: sha256("bytes"),
    });
  });

  it("refuses a folder another user owns, one others can enter, a link, and a writable parent", () => {
    const foreign = join(root, "foreign");
    mkdirSync(foreign, { mode: 0o700 });
    chownSync(foreign, OTHER_UID, OTHER_UID);
    expect(untrustedCacheDir(foreign)).toMatch(/belongs to uid 65534/);
    const open = join(root, "open");
    mkdirSync(open);
    chmodSync(open, 0o777);
    expect(untrustedCacheDir(open)).toMatch(/accessible to other users/);
    const link = join(root, "link");
    symlinkSync(join(root, "fresh"), link);
    expect(untrustedCacheDir(link)).toMatch(/not a directory/);
    const shared = join(root, "shared");
    mkdirSync(shared);
    chmodSync(shared, 0o777); // writable by all and not sticky: anyone may rename our folder away
    expect(untrustedCacheDir(join(shared, "sandbox"))).toMatch(/writable by other users/);
  });

  it("refuses a snapshot file another user owns or may write, and a link", () => {
    const dir = join(root, "files");
    mkdirSync(dir, { mode: 0o700 });
    const file = join(dir, "a.snapshot");
    writeFileSync(file, "bytes", { mode: 0o600 });
    chownSync(file, OTHER_UID, OTHER_UID);
    expect(refusal(file)).toMatch(/uid 65534/);
    const writable = join(dir, "b.snapshot");
    writeFileSync(writable, "bytes");
    chmodSync(writable, 0o666);
    expect(refusal(writable)).toMatch(/writable/);
    const linked = join(dir, "c.snapshot");
    symlinkSync(join(root, "planted.snapshot"), linked);
    expect(refusal(linked)).toMatch(/cannot open/);
  });

  it("without a data dir, the cache is the user's own cache folder, not the shared temp folder", () => {
    expect(userCacheDir({ XDG_CACHE_HOME: "/home/u/.cache" })).toBe("/home/u/.cache/envstudio/sandbox");
    expect(userCacheDir({})).not.toContain(tmpdir());
  });
});

describe("booting from a planted snapshot", { timeout: 240_000 }, () => {
  it("boots from a snapshot in a private folder (the probe can see a plant)", async () => {
    expect(await bootedPlanted(cacheWithPlant("private"))).toBe(true);
  });

  it("never boots from one in a folder another user owns", async () => {
    const dir = cacheWithPlant("planted-by-other");
    chownSync(dir, OTHER_UID, OTHER_UID);
    expect(await bootedPlanted(dir)).toBe(false);
  });

  it("never boots from one in a folder others can write", async () => {
    const dir = cacheWithPlant("planted-open");
    chmodSync(dir, 0o777);
    expect(await bootedPlanted(dir)).toBe(false);
  });

  it("never boots from a snapshot file another user owns", async () => {
    const dir = cacheWithPlant("planted-file");
    chownSync(snapshotFile(dir, pyodideDir()), OTHER_UID, OTHER_UID);
    expect(await bootedPlanted(dir)).toBe(false);
  });
});

describe("the host boots only the bytes the server checked", { timeout: 240_000 }, () => {
  /** Boots a host whose snapshot must have `sha256`, and asks a worker whether it was planted. */
  async function hostBootedPlanted(cacheDir: string, sha256: string): Promise<boolean> {
    const options = {
      ...defaultOptions({}),
      cacheDir,
      poolSize: 1,
      spareWorkers: 0,
      hostInBwrap: "off" as const,
    };
    const host = await HostProcess.start({
      options,
      node: resolveHostNode(undefined),
      pyodide: pyodideDir(),
      snapshotPath: snapshotFile(cacheDir, pyodideDir()),
      snapshotSha256: sha256,
      generation: 1,
      jailed: false,
    });
    try {
      const ready = await host.ready;
      if (!ready.ok) throw new Error(ready.error.message);
      const lease = await host.request({ type: "lease", key: null, waitMs: 60_000 }, 65_000);
      if (!lease.ok || lease.value.lease === undefined || lease.value.slot === undefined)
        throw new Error("no lease");
      host.bindLease(lease.value.lease, lease.value.slot);
      const call = (request: Record<string, unknown>) =>
        host.call(lease.value.lease!, request as never, 10_000, 20_000);
      const loaded = await call({ op: "load", source: PROBE, class_name: "Env", initial_state: {} });
      if (!loaded.ok) throw new Error(loaded.error.message);
      const step = await call({ op: "step", name: "planted", arguments: {} });
      if (!step.ok) throw new Error(step.error.message);
      return (step.value as { observation: unknown }).observation === true;
    } finally {
      await host.close();
    }
  }

  it("with the digest of the file it finds, the host boots it; with another digest (the file was swapped after the check), it does not", async () => {
    const dir = cacheWithPlant("swapped");
    const checked = checkSnapshot(snapshotFile(dir, pyodideDir()));
    if (!checked.ok) throw new Error(checked.reason);
    expect(await hostBootedPlanted(dir, checked.sha256)).toBe(true);
    expect(await hostBootedPlanted(dir, sha256("the bytes the server checked"))).toBe(false);
  });
});
