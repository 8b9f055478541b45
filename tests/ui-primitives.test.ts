/**
 * Buttons get their look in one place: components/ui (Button, ToggleButton). A raw `<button>` in a
 * page or feature component is a second copy of that style that drifts; this fails on the first one.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");

function tsxUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return tsxUnder(rel);
    return rel.endsWith(".tsx") ? [rel] : [];
  });
}

describe("UI primitives", () => {
  it("no page or feature component renders a raw <button>", () => {
    const offenders = [...tsxUnder("app"), ...tsxUnder("components")]
      .filter((file) => !file.startsWith("components/ui/"))
      .filter((file) => /<button\b/.test(readFileSync(path.join(ROOT, file), "utf8")));
    expect(offenders).toEqual([]);
  });
});
