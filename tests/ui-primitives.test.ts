/**
 * Controls get their look and their wiring in one place: components/ui. A raw `<button>`, `<input>`,
 * `<select>` or `<textarea>` in a page or feature component is a second copy of that style that
 * drifts (and, for a form control, a label tied by hand); this fails on the first one. Monaco
 * renders its own editing elements at run time; they never appear in the studio's source.
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

const featureFiles = () =>
  [...tsxUnder("app"), ...tsxUnder("components")].filter((file) => !file.startsWith("components/ui/"));

/** The files outside components/ui that render `<tag …>` themselves. */
const rendering = (tag: string) =>
  featureFiles().filter((file) => new RegExp(`<${tag}\\b`).test(readFileSync(path.join(ROOT, file), "utf8")));

describe("UI primitives", () => {
  it("no page or feature component renders a raw <button>", () => {
    expect(rendering("button")).toEqual([]);
  });

  it.each(["input", "select", "textarea"])("no page or feature component renders a raw <%s>", (tag) => {
    expect(rendering(tag)).toEqual([]);
  });

  it("every file picker is FileInput: a visible button and the chosen names, not the browser's raw control", () => {
    const fileInputs = [...tsxUnder("app"), ...tsxUnder("components")].filter((file) =>
      /type=["{]+["']?file\b/.test(readFileSync(path.join(ROOT, file), "utf8")),
    );
    expect(fileInputs).toEqual(["components/ui/file-input.tsx"]);
    // Pages reach it through inputs.tsx like every other control.
    expect(readFileSync(path.join(ROOT, "components/ui/inputs.tsx"), "utf8")).toContain(
      'export { FileInput } from "./file-input";',
    );
  });

  it("the check sees a raw control (it is not vacuous)", () => {
    // components/ui itself renders the raw elements, so the same pattern finds them there.
    const ui = tsxUnder("components/ui").map((file) => readFileSync(path.join(ROOT, file), "utf8"));
    for (const tag of ["button", "input", "select", "textarea"])
      expect(ui.some((text) => new RegExp(`<${tag}\\b`).test(text))).toBe(true);
  });
});
