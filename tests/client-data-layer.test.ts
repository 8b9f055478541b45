/**
 * Pages read and write through the typed data layer: lib/api/fetch-api.ts is the one place that calls
 * `fetch` or `navigator.sendBeacon` for a page, so every answer is parsed with its route's schema and
 * every refusal becomes an ApiError. A `fetch(` in app/ or components/ is a second, unparsed way in.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");

function sourcesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourcesUnder(rel);
    return /\.tsx?$/.test(rel) && !/\.test\.tsx?$/.test(rel) ? [rel] : [];
  });
}

const calling = (pattern: RegExp) =>
  [...sourcesUnder("app"), ...sourcesUnder("components")].filter((file) =>
    pattern.test(readFileSync(path.join(ROOT, file), "utf8")),
  );

describe("client data layer", () => {
  it("no page or component calls fetch itself", () => {
    expect(calling(/(?<![\w.])fetch\(/)).toEqual([]);
  });

  it("no page or component sends a beacon itself", () => {
    expect(calling(/navigator\.sendBeacon\(/)).toEqual([]);
  });

  it("the check sees a raw call (it is not vacuous)", () => {
    const fetchApi = readFileSync(path.join(ROOT, "lib/api/fetch-api.ts"), "utf8");
    expect(/(?<![\w.])fetch\(/.test(fetchApi)).toBe(true);
    expect(/navigator\.sendBeacon\(/.test(fetchApi)).toBe(true);
  });
});
