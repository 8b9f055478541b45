/**
 * Facts stated in two places agree, and the docs stay readable: the test tiers in vitest.config.ts
 * name folders that hold tests, cover every test file and cite only files that exist; the README and
 * docs/exports.md give the number of export formats the code has; the README fits on two screens;
 * every relative link in the docs reaches a file (and heading) that exists; no table cell is a page
 * of prose; code cites only doc pages that exist; and no code comment cites a tracker number, which
 * means nothing to a reader of the code.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
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

  it("cites only files that exist", () => {
    const source = readFileSync(path.join(ROOT, "vitest.config.ts"), "utf8");
    // Paths with a file extension, in code and comments alike; globs (`**/*.test.ts`) are not paths.
    const cited = [...source.matchAll(/(?:\.\/)?[\w@.-]+(?:\/[\w@.-]+)+\.[a-z]+\b/g)].map((m) => m[0]);
    expect(cited.length).toBeGreaterThanOrEqual(3);
    expect(cited.filter((file) => !existsSync(path.join(ROOT, file)))).toEqual([]);
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

const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

/** README.md and every page under docs/. */
const DOC_FILES = ["README.md", ...filesUnder("docs").filter((f) => f.endsWith(".md"))];

/** Markdown without its fenced code blocks (a link or a heading inside one is not one). */
const withoutCodeBlocks = (markdown: string) =>
  markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");

/** The anchors GitHub gives a page's headings (github-slugger: lower case, punctuation dropped, spaces to `-`). */
function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, text = ""] of withoutCodeBlocks(markdown).matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count ? `${base}-${count}` : base);
  }
  return anchors;
}

/** Relative link targets of a Markdown page: `[text](target)`, without web and mail addresses. */
const relativeLinks = (markdown: string) =>
  [...withoutCodeBlocks(markdown).matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] ?? "")
    .filter((target) => !/^[a-z][a-z+.-]*:/i.test(target));

describe("the docs", () => {
  it("keep the README to two screens", () => {
    expect(read("README.md").split("\n").length).toBeLessThanOrEqual(100);
  });

  it("link only to files and headings that exist", () => {
    const broken = DOC_FILES.flatMap((file) =>
      relativeLinks(read(file)).flatMap((target) => {
        const [pathPart = "", anchor] = target.split("#");
        const linked = pathPart
          ? path.posix.normalize(path.posix.join(path.posix.dirname(file), pathPart))
          : file;
        if (!existsSync(path.join(ROOT, linked))) return [`${file}: ${target} (no such file)`];
        if (anchor && linked.endsWith(".md") && !headingAnchors(read(linked)).has(anchor))
          return [`${file}: ${target} (no such heading)`];
        return [];
      }),
    );
    expect(broken).toEqual([]);
  });

  it("keep table cells short (Prettier pads every row of a table to its longest cell)", () => {
    const MAX_CELL = 300;
    const long = DOC_FILES.flatMap((file) =>
      withoutCodeBlocks(read(file))
        .split("\n")
        .filter((line) => line.startsWith("|"))
        .flatMap((row) => row.split("|").map((cell) => cell.trim()))
        .filter((cell) => cell.length > MAX_CELL && !/^[-:]+$/.test(cell))
        .map((cell) => `${file}: ${cell.slice(0, 60)}… (${cell.length} characters)`),
    );
    expect(long).toEqual([]);
  });
});

/** Folders whose code comments are checked, and the file types that hold code there. */
const CODE_FOLDERS = ["app", "components", "lib", "scripts", "bench", "e2e", "tests", "prisma"];
const CODE_FILE = /\.(ts|tsx|mts|mjs|js|py)$/;

/** The comments of a source file: `//` and `/* *\/` for TypeScript and JavaScript, `#` for Python. */
function comments(file: string, source: string): string[] {
  const pattern = file.endsWith(".py") ? /#[^\n]*/g : /\/\*[\s\S]*?\*\/|\/\/[^\n]*/g;
  return source.match(pattern) ?? [];
}

/**
 * A tracker reference: the word issue, PR or pull request followed by a number, or a number right
 * after a hash sign. The EnvScaler defect list's numbers are cited after their section ("§12.1" and
 * the number, docs/envscaler.md) and are not tracker numbers.
 */
const TRACKER_REFERENCE = /\b(?:issues?|PR|pull request)\s*#?\d+|(?<!§[\d.]+\s*)(?<![\w&/])#\d+\b/i;

const codeFiles = () => CODE_FOLDERS.flatMap((folder) => filesUnder(folder)).filter((f) => CODE_FILE.test(f));

describe("code comments", () => {
  it("cite only doc pages that exist", () => {
    const missing = [...codeFiles(), ".env.example"].flatMap((file) =>
      [...read(file).matchAll(/\bdocs\/[\w-]+\.md\b/g)]
        .map((m) => m[0])
        .filter((doc) => !existsSync(path.join(ROOT, doc)))
        .map((doc) => `${file}: ${doc}`),
    );
    expect(missing).toEqual([]);
  });

  it("cite no issue or pull request numbers", () => {
    const files = codeFiles();
    expect(files.length).toBeGreaterThan(100);
    const citing = files.flatMap((file) => {
      const source = read(file).replace(/^#!.*\n/, "");
      return comments(file, source)
        .map((comment) => (file.endsWith(".py") ? comment.slice(1) : comment))
        .filter((comment) => TRACKER_REFERENCE.test(comment))
        .map((comment) => `${file}: ${comment.trim().slice(0, 100)}`);
    });
    expect(citing).toEqual([]);
  });
});
