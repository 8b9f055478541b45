/**
 * Decides whether `npm start` must rebuild: a fingerprint of the sources (paths, sizes, mtimes)
 * is written after each successful build and compared on the next start.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const INPUTS = [
  "app",
  "components",
  "lib",
  "public",
  "proxy.ts",
  "next.config.ts",
  "package-lock.json",
  "postcss.config.mjs",
  "tsconfig.json",
];
const STAMP = ".next/envstudio-build-fingerprint";

export function sourceFingerprint(root: string): string {
  const hash = createHash("sha256");
  for (const input of INPUTS) {
    const full = path.join(root, input);
    if (!fs.existsSync(full)) continue;
    const stat = fs.statSync(full);
    const files = stat.isDirectory()
      ? (fs.readdirSync(full, { recursive: true }) as string[]).map((f) => path.join(input, f)).sort()
      : [input];
    for (const file of files) {
      const s = fs.statSync(path.join(root, file));
      if (s.isFile()) hash.update(`${file}\0${s.size}\0${s.mtimeMs}\n`);
    }
  }
  return hash.digest("hex");
}

export function buildIsCurrent(root: string): boolean {
  const stamp = path.join(root, STAMP);
  return (
    fs.existsSync(path.join(root, ".next/BUILD_ID")) &&
    fs.existsSync(stamp) &&
    fs.readFileSync(stamp, "utf8") === sourceFingerprint(root)
  );
}

export function writeBuildFingerprint(root: string): void {
  fs.writeFileSync(path.join(root, STAMP), sourceFingerprint(root));
}
