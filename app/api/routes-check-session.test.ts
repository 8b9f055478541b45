/**
 * Every API route checks the session itself (issue 14.6): proxy.ts is the first gate, not the only
 * one, so a route must call currentUser()/requireRole() in each exported handler. The readiness
 * probe is the one public route and must not say why the database is down.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const API = path.resolve(import.meta.dirname);
const PUBLIC_ROUTES = new Set(["health/route.ts"]);

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? routeFiles(full) : e.name === "route.ts" ? [full] : [];
  });
}

/** The source of each exported HTTP handler: from `export async function GET(` to the next export. */
function handlers(source: string): { method: string; body: string }[] {
  const starts = [...source.matchAll(/export async function (GET|POST|PUT|PATCH|DELETE)\(/g)];
  return starts.map((m, i) => ({ method: m[1] ?? "", body: source.slice(m.index, starts[i + 1]?.index ?? source.length) }));
}

/**
 * Handlers a route re-exports from another route (`import { DELETE } from "../route"; export const
 * POST = DELETE;`): each resolves to the source of the handler it reuses, so it is held to the same rule.
 */
function reexportedHandlers(file: string, source: string): { method: string; body: string }[] {
  return [...source.matchAll(/export const (GET|POST|PUT|PATCH|DELETE) = (\w+);/g)].map((m) => {
    const [, method = "", name = ""] = m;
    const from = new RegExp(`import \\{[^}]*\\b${name}\\b[^}]*\\} from "(\\.[^"]+)"`).exec(source)?.[1];
    if (!from) return { method, body: `${name} is not imported from another route` };
    const target = fs.readFileSync(path.resolve(path.dirname(path.join(API, file)), `${from}.ts`), "utf8");
    const body = handlers(target).find((h) => h.method === name)?.body;
    return { method, body: body ?? `${from} has no handler ${name}` };
  });
}

describe("API routes", () => {
  const files = routeFiles(API).map((f) => path.relative(API, f));

  it("are all found", () => {
    expect(files).toEqual(expect.arrayContaining(["runs/[id]/route.ts", "runs/[id]/summary/route.ts", "imports/route.ts", "health/route.ts"]));
  });

  it.each(files.filter((f) => !PUBLIC_ROUTES.has(f)))("%s checks the session in every handler", (file) => {
    const source = fs.readFileSync(path.join(API, file), "utf8");
    const found = [...handlers(source), ...reexportedHandlers(file, source)];
    expect(found.length).toBeGreaterThan(0);
    for (const { method, body } of found) expect(body, `${file} ${method}`).toMatch(/await (currentUser|requireRole)\(/);
  });

  it("the public readiness probe answers without internal error text", () => {
    const source = fs.readFileSync(path.join(API, "health/route.ts"), "utf8");
    expect(source).not.toMatch(/\.message/);
    expect(source).not.toMatch(/error:\s*\(?error/);
  });
});
