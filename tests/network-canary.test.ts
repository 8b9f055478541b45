// The canary's own control: the payload of tests/network-canary.ts, run by a plain python3 with
// nothing in the way, does reach the listener - by several routes, including the one that acts
// after the call returned. So a surface test that sees 0 connections shows that the sandbox
// stopped it, not that the payload or the listener was broken.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { networkPayload, useCanary } from "./network-canary";

const canary = useCanary();

describe("network canary (plain python3, no sandbox)", () => {
  it("the payload connects to the listener when nothing stops it", async () => {
    const program = `import json\ndef run():\n${networkPayload(canary.port, 4)}\n    return _outcomes\nprint(json.dumps(run()))\n`;
    const { stdout } = await promisify(execFile)("/usr/bin/python3", ["-c", program], { timeout: 30_000 });
    const outcomes = JSON.parse(stdout) as Record<string, string>;
    expect(outcomes).toMatchObject({
      socket: "not blocked",
      _socket: "not blocked",
      "threading Timer": "not blocked",
    });
    // socket, _socket, urllib, and the Timer that fires after the function returned
    expect(await canary.settle()).toBeGreaterThanOrEqual(4);
  });
});
