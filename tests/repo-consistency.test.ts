/**
 * Facts stated in two places agree: the test tiers in vitest.config.ts name folders that hold tests
 * and cover every test file, and the README and docs/exports.md give the number of export formats
 * the code has. A folder without tests in the config, or a count that drifted, fails here.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EXPORT_FORMATS } from "@/lib/export/formats/registry";
import config from "@/vitest.config";

const ROOT = path.resolve(import.meta.dirname, "..");
const SKIPPED = new Set(["node_modules", ".git", ".next", "reports", "test-results", "e2e"]);

/** Repository files under `dir` (relative to the root), skipping dependencies and build output. */
function filesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : filesUnder(rel);
    return [rel];
  });
}

/** `{lib,app}/**\/*.test.{ts,tsx}` → folders ["lib", "app"], suffixes [".test.ts", ".test.tsx"]. */
function parseInclude(glob: string): { folders: string[]; suffixes: string[] } {
  const match = /^\{([^}]+)\}\/\*\*\/\*(\.[\w.]+)(?:\{([\w,]+)\})?$/.exec(glob);
  if (!match?.[1] || !match[2]) throw new Error(`unexpected include pattern ${glob}`);
  const [, folders, stem, endings] = match;
  return {
    folders: folders.split(","),
    suffixes: endings ? endings.split(",").map((e) => stem + e) : [stem],
  };
}

const NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];

/** The number written as a word right before `noun` in `text`, e.g. "six export formats". */
function countBefore(text: string, noun: RegExp): number {
  const match = new RegExp(`\\b(${NUMBER_WORDS.join("|")}) ${noun.source}`, "i").exec(text);
  return match?.[1] ? NUMBER_WORDS.indexOf(match[1].toLowerCase()) : -1;
}

type Tier = { name: string; folders: string[]; suffixes: string[]; excluded: string[] };

function tiers(): Tier[] {
  const projects = (config.test?.projects ?? []) as {
    test: { name: string; include: string[]; exclude?: string[] };
  }[];
  return projects.flatMap(({ test }) =>
    test.include.map((glob) => ({
      name: test.name,
      ...parseInclude(glob),
      // `**/*.db.test.ts`-style exclusions, by file suffix
      excluded: (test.exclude ?? []).filter((g) => g.startsWith("**/*")).map((g) => g.slice(4)),
    })),
  );
}

const inTier = (file: string, tier: Tier) =>
  tier.folders.some((d) => file.startsWith(`${d}/`)) &&
  tier.suffixes.some((suffix) => file.endsWith(suffix)) &&
  !tier.excluded.some((suffix) => file.endsWith(suffix));

describe("vitest.config.ts", () => {
  const files = filesUnder("");

  it("names only folders that hold test files of the tier", () => {
    expect(tiers().map((t) => t.name)).toEqual(["unit", "db"]);
    for (const tier of tiers())
      for (const folder of tier.folders)
        expect(
          files.some((f) => inTier(f, { ...tier, folders: [folder] })),
          `${tier.name}: ${folder}/ has no ${tier.suffixes.join(" or ")} file`,
        ).toBe(true);
  });

  it("puts every test file of the repository in a tier", () => {
    const tests = files.filter((f) => /\.test\.tsx?$/.test(f));
    expect(tests.length).toBeGreaterThan(100);
    expect(tests.filter((f) => !tiers().some((tier) => inTier(f, tier)))).toEqual([]);
  });
});

describe("the number of export formats", () => {
  it("is the same in the code, the README and docs/exports.md", () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    const exportsDoc = readFileSync(path.join(ROOT, "docs/exports.md"), "utf8");
    expect(countBefore(readme, /export formats/)).toBe(EXPORT_FORMATS.length);
    expect(countBefore(exportsDoc, /(formats|shapes)\b/)).toBe(EXPORT_FORMATS.length);
  });
});
