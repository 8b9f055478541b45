/**
 * A minimal streaming tar (ustar) writer for downloads: folders become one file without native
 * dependencies. Entries are streamed from disk, so memory stays at one chunk per file.
 */
import { createReadStream, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";

function octal(value: number, length: number): string {
  return value.toString(8).padStart(length - 1, "0") + "\0";
}

export function tarHeader(name: string, size: number, mtime: number): Buffer {
  const header = Buffer.alloc(512);
  // ustar splits long names into prefix (155) + name (100); export paths are short and ASCII.
  let prefix = "";
  let base = name;
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf("/", 155);
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
  }
  header.write(base, 0, 100);
  header.write(octal(0o644, 8), 100);
  header.write(octal(0, 8), 108);
  header.write(octal(0, 8), 116);
  header.write(octal(size, 12), 124);
  header.write(octal(Math.floor(mtime / 1000), 12), 136);
  header.write("        ", 148); // checksum is computed with spaces in its own field
  header.write("0", 156);
  header.write("ustar\u000000", 257);
  header.write(prefix, 345, 155);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(octal(sum, 7) + " ", 148);
  return header;
}

function listFiles(dir: string, base = ""): string[] {
  return readdirSync(path.join(dir, base), { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) =>
      e.isDirectory() ? listFiles(dir, path.posix.join(base, e.name)) : [path.posix.join(base, e.name)],
    );
}

/** A readable tar stream of every file under `dir`, paths prefixed with `root/`. */
export function tarDirectory(dir: string, root: string): Readable {
  async function* generate() {
    for (const rel of listFiles(dir)) {
      const full = path.join(dir, rel);
      const { size, mtimeMs } = statSync(full);
      yield tarHeader(`${root}/${rel}`, size, mtimeMs);
      for await (const chunk of createReadStream(full)) yield chunk as Buffer;
      if (size % 512) yield Buffer.alloc(512 - (size % 512));
    }
    yield Buffer.alloc(1024); // two zero blocks end the archive
  }
  return Readable.from(generate());
}
