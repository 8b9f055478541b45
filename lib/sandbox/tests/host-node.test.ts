// The Pyodide host must have no network even without the jail: its Node's permission model must
// cover the network (Node >= 25), or the runner refuses to start — it fails closed.
import { describe, expect, it } from "vitest";
import { resolveHostNode } from "../host-node";
import { createSandboxRunner } from "../index";

describe("sandbox host Node", () => {
  it("defaults to a Node whose permission model denies network", () => {
    const node = resolveHostNode(undefined);
    expect(node.major).toBeGreaterThanOrEqual(25);
    expect(node.denysNetwork).toBe(true);
  });

  it("refuses to start unjailed on a Node that cannot deny network", () => {
    // The studio's own Node 20 (its permission model covers files, workers and processes only).
    expect(() => createSandboxRunner({ hostInBwrap: "off", hostNode: "/usr/bin/node" })).toThrow(
      /would have network access.*Node 20/,
    );
  });

  it("accepts that Node inside the bubblewrap jail (no network namespace)", async () => {
    const runner = createSandboxRunner({
      hostInBwrap: "on",
      hostNode: "/usr/bin/node",
      poolSize: 1,
      spareWorkers: 0,
    });
    const loaded = await runner.load({
      source: "class E:\n    def t(self):\n        return 1",
      className: "E",
      initialState: {},
    });
    expect(loaded.ok).toBe(true);
    if (loaded.ok) await loaded.value.close();
    await runner.close();
  });

  it("names a SANDBOX_NODE that does not run", () => {
    expect(() => createSandboxRunner({ hostNode: "/nonexistent/node" })).toThrow(
      /SANDBOX_NODE=\/nonexistent\/node is not a runnable node/,
    );
  });
});
