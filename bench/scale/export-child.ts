/**
 * BENCH ONLY. Exports one dataset version from the database in its own process, so the peak RSS
 * it reports is the export's alone (not the seeding or the page timings of the parent).
 * Usage: tsx bench/scale/export-child.ts <database url> <dataset version id> <format>
 * Prints one JSON line: {format, scenarios, bytes, seconds, cpuSeconds, peakRssMb}.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createDb } from "../../lib/db";
import type { ExportFormat } from "../../lib/db/generated/enums";
import { writeDatasetExport } from "../../lib/export/server/run-export";

const [url, versionId, format] = process.argv.slice(2);
if (!url || !versionId || !format) throw new Error("usage: export-child.ts <url> <versionId> <format>");
const db = createDb(url, 2);
const dir = mkdtempSync(path.join(tmpdir(), "bench-scale-export-"));
const cpu = process.cpuUsage();
const start = performance.now();
const summary = await writeDatasetExport(db, versionId, format as ExportFormat, dir);
const seconds = (performance.now() - start) / 1000;
const used = process.cpuUsage(cpu);
await db.$disconnect();
rmSync(dir, { recursive: true, force: true });
// maxRSS is the kernel's high-water mark of this process (VmHWM), not a sample.
console.log(
  JSON.stringify({
    format,
    scenarios: summary.scenarios,
    bytes: summary.bytes,
    seconds,
    cpuSeconds: (used.user + used.system) / 1e6,
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 102.4) / 10,
  }),
);
