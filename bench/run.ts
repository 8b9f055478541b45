/**
 * `npm run bench -- <name>`: runs bench/<name>.ts. Each benchmark prints its figures and writes
 * bench/results/<name>.json as {name, metrics, targets}.
 */
import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const available = readdirSync(here)
  .filter((f) => f.endsWith(".ts") && f !== "run.ts")
  .map((f) => f.replace(/\.ts$/, ""));
const [name] = process.argv.slice(2);

if (!name || !/^[a-z0-9-]+$/.test(name) || !existsSync(join(here, `${name}.ts`))) {
  process.stderr.write(`usage: npm run bench -- <name>\navailable: ${available.join(", ")}\n`);
  process.exit(2);
}
const bench = (await import(pathToFileURL(join(here, `${name}.ts`)).href)) as { main?: () => Promise<void> };
if (typeof bench.main !== "function") {
  process.stderr.write(`bench/${name}.ts does not export main()\n`);
  process.exit(2);
}
await bench.main();
