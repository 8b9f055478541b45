/**
 * Every API route checks the session itself: proxy.ts is the first gate, not the only
 * one. A handler is built with apiRoute({ role, … }) (which authorises before anything else:
 * route-handler.test.ts), or is a function that calls currentUser()/requireRole() itself. The
 * readiness probe is the one public route and must not say why the database is down.
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

const METHOD = "(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)";

/** Every HTTP handler name a route exports, however it is written (function, const, export list). */
function exportedMethods(source: string): string[] {
  const declared = [
    ...source.matchAll(new RegExp(`export (?:async )?(?:function|const|let|var) ${METHOD}\\b`, "g")),
  ].map((m) => m[1] ?? "");
  const listed = [...source.matchAll(/export \{([^}]*)\}/g)].flatMap((m) =>
    [...(m[1] ?? "").matchAll(new RegExp(`\\b${METHOD}\\s*(?:,|$)`, "g"))].map((n) => n[1] ?? ""),
  );
  return [...declared, ...listed];
}

/**
 * The source of each exported HTTP handler, from its `export` to the next handler's: a function
 * (`export async function GET(`) or a handler built with apiRoute (`export const GET = apiRoute(`).
 */
function handlers(source: string): { method: string; body: string }[] {
  const starts = [
    ...source.matchAll(
      new RegExp(`export (?:async function ${METHOD}\\(|const ${METHOD} = apiRoute\\()`, "g"),
    ),
  ];
  return starts.map((m, i) => ({
    method: m[1] ?? m[2] ?? "",
    body: source.slice(m.index, starts[i + 1]?.index ?? source.length),
  }));
}

/** A function handler awaits the session check itself; an apiRoute handler names the role it requires. */
const CHECKS_SESSION =
  /await (currentUser|requireRole)\(|^export const \w+ = apiRoute\(\s*\{\s*role: "(VIEWER|REVIEWER|ADMIN)"/;

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
    expect(files).toEqual(
      expect.arrayContaining([
        "runs/[id]/route.ts",
        "runs/[id]/summary/route.ts",
        "imports/route.ts",
        "health/route.ts",
      ]),
    );
  });

  it.each(files.filter((f) => !PUBLIC_ROUTES.has(f)))("%s checks the session in every handler", (file) => {
    const source = fs.readFileSync(path.join(API, file), "utf8");
    const found = [...handlers(source), ...reexportedHandlers(file, source)];
    expect(found.length).toBeGreaterThan(0);
    // A handler written any other way (a bare arrow function, an export list) is not recognised: it fails here.
    expect(found.map((h) => h.method).sort(), file).toEqual(exportedMethods(source).sort());
    for (const { method, body } of found) expect(body, `${file} ${method}`).toMatch(CHECKS_SESSION);
  });

  it("apiRoute authorises with the session check", () => {
    const source = fs.readFileSync(path.join(API, "api-route.ts"), "utf8");
    expect(source).toMatch(/export const apiRoute = createApiRoute\(requireRole\);/);
    expect(source).toMatch(/import \{ requireRole \} from "@\/lib\/auth\/server\/require-role";/);
  });

  it("the public readiness probe answers without internal error text", () => {
    const source = fs.readFileSync(path.join(API, "health/route.ts"), "utf8");
    expect(source).not.toMatch(/\.message/);
    expect(source).not.toMatch(/error:\s*\(?error/);
  });
});
