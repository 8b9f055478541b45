/**
 * No import cycle among lib/ files. A cycle makes load order decide what is initialised (the
 * pipeline's step job once needed a register-me-first singleton to survive one) and ties domains
 * together that should be read and tested apart. On failure the message lists every cycle.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildImportGraph, findCycles } from "./import-graph";

const ROOT = path.resolve(import.meta.dirname, "..");

describe("lib/ import graph", () => {
  it("finds a planted cycle and a self-import, and no file outside them", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
    ]);
    expect(findCycles(graph)).toEqual([["a.ts", "b.ts", "c.ts"]]);
    expect(findCycles(new Map([["x.ts", ["x.ts"]]]))).toEqual([["x.ts"]]);
  });

  it("resolves relative, `@/` and lazy imports of lib/ files", () => {
    const graph = buildImportGraph(ROOT);
    expect(graph.get("lib/jobs/worker.ts")).toEqual(
      expect.arrayContaining(["lib/jobs/boss.ts", "lib/jobs/job-definition.ts"]),
    );
    expect(graph.get("lib/pipeline/server/run-step.ts")).toEqual(
      expect.arrayContaining(["lib/db/index.ts", "lib/core/run.ts"]),
    );
    expect(graph.get("lib/jobs/server/job-handlers.ts")).toEqual(
      expect.arrayContaining(["lib/pipeline/server/run-step.ts"]),
    );
  });

  it("has no strongly connected component of more than one file", () => {
    const cycles = findCycles(buildImportGraph(ROOT));
    const report = cycles.map((files, i) => `cycle ${i + 1}:\n  ${files.join("\n  ")}`).join("\n");
    expect(report, `import cycles among lib/ files:\n${report}`).toBe("");
  });
});
