// No sandboxed code starts a process (nor, on bwrap, a thread): not through a builtin module re-created from its spec under
// the lockdown's nose (the `_posixsubprocess` route), not by any other route (the bwrap backend's
// seccomp filter, python/noproc.py). Evidence is on the host: the processes an attack would have
// started (`sleep <unique seconds>`), counted with pgrep after the call.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createSandboxRunner } from "../index";
import { PYTHON_DIR } from "../paths";

const SLEEP_SECONDS = "31.731"; // unique: only this test's attempts run `sleep 31.731`

function sleepersOnHost(): number {
  const found = spawnSync("pgrep", ["-f", `sleep ${SLEEP_SECONDS}`], { encoding: "utf8" });
  return found.stdout.split("\n").filter(Boolean).length;
}

function killSleepers(): void {
  spawnSync("pkill", ["-KILL", "-f", `sleep ${SLEEP_SECONDS}`]);
}

/**
 * The sleepers on the host once `want` of them show up, or at the deadline. fork_exec may return
 * before its child has exec'd, and until then the child's command line is still python's.
 */
async function sleepersReaching(want: number, deadlineMs = 10_000): Promise<number> {
  const until = Date.now() + deadlineMs;
  let count = sleepersOnHost();
  while (count < want && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    count = sleepersOnHost();
  }
  return count;
}
afterAll(killSleepers);

/** Python that starts up to 100 `sleep` children through `_posixsubprocess.fork_exec`, obtained by
 * `module()`; returns what happened. fork_exec's arity differs across Python versions. */
const SPAWN = (module: string) => `
import os
def attack():
    try:
        m = ${module}
    except BaseException as e:
        return "no module: " + type(e).__name__ + ": " + str(e)
    r, w = os.pipe()
    null = os.open("/dev/null", os.O_RDWR)  # the children must not hold the caller's stdio open
    head = [[b"/usr/bin/sleep", b"${SLEEP_SECONDS}"], [b"/usr/bin/sleep"], True, (w,), None, None,
            null, -1, -1, null, -1, null, r, w, False, False]
    started = 0
    for _ in range(100):
        for tail in ([-1, None, None, None, -1, None, False], [-1, None, None, None, -1, None], [None, None, None, None]):
            try:
                m.fork_exec(*head, *tail)
                started += 1
                break
            except TypeError:
                continue
            except BaseException as e:
                return "refused: " + type(e).__name__ + ": " + str(e)
    return "started %d" % started
`;

const ROUTES: Record<string, string> = {
  "builtin re-created from its spec": `__import__("_imp").create_builtin(__import__("importlib.machinery").machinery.ModuleSpec("_posixsubprocess", None))`,
  "builtin under a dotted alias": `__import__("_imp").create_builtin(__import__("importlib.machinery").machinery.ModuleSpec("x._posixsubprocess", None))`,
  "importlib's builtin loader": `__import__("importlib._bootstrap")._bootstrap._builtin_from_name("_posixsubprocess")`,
};

const envWith = (python: string) => `${python}

class Env:
    def __init__(self, config=None):
        pass

    def spawn(self) -> str:
        """Starts processes if it can."""
        return attack()
`;

describe("the seccomp layer on its own (python/noproc.py, python3 without the lockdown)", () => {
  const script = (install: boolean) => `
import os, sys, threading
sys.path.insert(0, ${JSON.stringify(PYTHON_DIR)})
${install ? "import noproc; noproc.install()" : ""}
${SPAWN(`__import__("_posixsubprocess")`)}
results = [attack()]
calls = [("fork", os.fork), ("posix_spawn", lambda: os.posix_spawn("/usr/bin/true", ["true"], {}))]
if ${install ? "True" : "False"}:  # unfiltered, exec would replace this very process
    calls.append(("exec", lambda: os.execv("/usr/bin/true", ["true"])))
for name, call in calls:
    try:
        pid = call()
        if pid == 0:
            os._exit(0)
        results.append(name + " ran")
    except OSError as e:
        results.append(name + " errno %d" % e.errno)
try:
    t = threading.Thread(target=lambda: None)
    t.start(); t.join()
    results.append("thread ran")
except RuntimeError:
    results.append("thread refused")
open(sys.argv[1], "w").write("|".join(results))
`;
  /** Runs the probe; its output goes to a file because the children it starts inherit stdio. */
  const run = (install: boolean): string => {
    const out = join(mkdtempSync(join(tmpdir(), "envstudio-noproc-")), "out");
    spawnSync("/usr/bin/python3", ["-c", script(install), out], { stdio: "ignore", timeout: 60_000 });
    return readFileSync(out, "utf8");
  };

  it("without the filter, the same python starts processes (the probe can see them)", async () => {
    try {
      const out = run(false);
      expect(out).toBe("started 100|fork ran|posix_spawn ran|thread ran");
      expect(await sleepersReaching(100)).toBeGreaterThanOrEqual(100);
    } finally {
      killSleepers(); // a failure here must not leave sleepers for the tests that count none
    }
  });

  it("with the filter, fork, exec, spawn and threads are refused", () => {
    const out = run(true);
    expect(out.split("|")).toEqual([
      "refused: PermissionError: [Errno 1] Operation not permitted",
      "fork errno 1",
      "posix_spawn errno 1",
      "exec errno 1",
      "thread refused",
    ]);
    expect(sleepersOnHost()).toBe(0);
  });
});

for (const backend of ["bwrap", "pyodide"] as const) {
  describe(`no processes from a tool (${backend})`, () => {
    const runner = createSandboxRunner({ backend, hostInBwrap: "off", poolSize: 2, spareWorkers: 0 });
    afterAll(() => runner.close());

    for (const [route, module] of Object.entries(ROUTES)) {
      it(`refuses ${route}, and no process appears on the host`, async () => {
        const loaded = await runner.load({
          source: envWith(SPAWN(module)),
          className: "Env",
          initialState: {},
        });
        if (!loaded.ok) throw new Error(loaded.error.message);
        const step = await loaded.value.step("spawn", {});
        await loaded.value.close();
        if (!step.ok) throw new Error(step.error.message);
        expect(String(step.value.observation)).toMatch(/^(no module|refused)/);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(sleepersOnHost()).toBe(0);
      });
    }
  });
}
