/**
 * `engines.node` in package.json states the Node the installed dependencies need: every Node it
 * admits is admitted by each installed package's own `engines.node` (e.g. pg-boss: >=22.12.0), and
 * it is no narrower than that requires (its lowest admitted version fails some dependency's range
 * one minor release earlier).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
// semver comes with npm's own toolchain deps (a transitive dependency); typed here for what we use.
const semver = createRequire(import.meta.url)("semver") as {
  subset(sub: string, sup: string): boolean;
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
};

type Pkg = { name?: string; engines?: { node?: string } };

function installedEngines(dir: string, out: [string, string][] = []): [string, string][] {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir)) {
    if (entry.startsWith(".")) continue;
    const full = path.join(dir, entry);
    if (entry.startsWith("@")) {
      installedEngines(full, out);
      continue;
    }
    const file = path.join(full, "package.json");
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, "utf8")) as Pkg;
      if (pkg.engines?.node) out.push([pkg.name ?? entry, pkg.engines.node]);
    }
    installedEngines(path.join(full, "node_modules"), out);
  }
  return out;
}

const ours = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as Pkg).engines?.node ?? "";
const deps = installedEngines(path.join(ROOT, "node_modules"));

describe("package.json engines", () => {
  it("admits only Nodes every installed dependency accepts", () => {
    expect(deps.length).toBeGreaterThan(10);
    const refused = deps.filter(([, range]) => !semver.subset(ours, range));
    expect(refused.map(([name, range]) => `${name}: ${range}`)).toEqual([]);
    expect(deps).toContainEqual(["pg-boss", ">=22.12.0"]);
  });

  it("is the narrowest range needed: one minor below its lowest Node, a dependency refuses", () => {
    const lowest = semver.minVersion(ours)!.version;
    const [major, minor] = lowest.split(".").map(Number);
    const below = `${major}.${minor! - 1}.0`;
    expect(deps.some(([, range]) => !semver.satisfies(below, range))).toBe(true);
  });
});
