/**
 * Server actions called over HTTP the way a browser (or an attacker) does: POST to a page with a
 * `Next-Action` id and the arguments as a JSON array. Ids come from the build's manifest.
 */
import fs from "node:fs";
import path from "node:path";

type ManifestEntry = { exportedName?: string; workers?: Record<string, unknown> };

/** A page path that serves the action: `app/environments/[id]/edit/page` → `/environments/x/edit`. */
function pageFor(workers: string[]): string {
  const worker = workers.find((w) => w !== "app/_not-found/page") ?? workers[0] ?? "app/page";
  const route = worker
    .replace(/^app/, "")
    .replace(/\/page$/, "")
    .replace(/\[[^\]]+\]/g, "x");
  return route || "/";
}

export type ActionRef = { name: string; id: string; page: string };

export function serverActions(): ActionRef[] {
  const file = path.resolve(".next/server/server-reference-manifest.json");
  const manifest = JSON.parse(fs.readFileSync(file, "utf8")) as { node: Record<string, ManifestEntry> };
  return Object.entries(manifest.node).map(([id, entry]) => ({
    id,
    name: entry.exportedName ?? id,
    page: pageFor(Object.keys(entry.workers ?? {})),
  }));
}

export function serverAction(name: string): ActionRef {
  const found = serverActions().find((a) => a.name === name);
  if (!found) throw new Error(`no server action ${name} in the build`);
  return found;
}

/** The action's reply: `1:{...}` is its return value; an `E{...}` row is an uncaught error. */
export type ActionReply = { ok?: boolean; error?: { code?: string; message?: string; retryable?: boolean } };

export function actionResult(text: string): ActionReply | null {
  const line = text.split("\n").find((l) => l.startsWith("1:"));
  if (!line || line.startsWith("1:E")) return null;
  return JSON.parse(line.slice(2)) as ActionReply;
}
