/**
 * Where writers put files: a directory, opened file by file. Writes respect stream backpressure
 * so a 100k-scenario export holds one buffer per open file, not the whole output.
 */
import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import path from "node:path";

export type FileHandle = { write(chunk: string): Promise<void>; close(): Promise<void>; readonly bytes: number };
export type Sink = {
  open(relativePath: string): FileHandle;
  /** An absolute path for binary writers (parquet) that manage their own file. */
  resolve(relativePath: string): string;
  readonly files: string[];
};

function handleFor(stream: WriteStream): FileHandle {
  let bytes = 0;
  return {
    get bytes() {
      return bytes;
    },
    write(chunk) {
      bytes += Buffer.byteLength(chunk);
      if (stream.write(chunk)) return Promise.resolve();
      return new Promise((resolve, reject) => {
        stream.once("drain", resolve);
        stream.once("error", reject);
      });
    },
    close: () => new Promise((resolve, reject) => stream.end((e?: Error | null) => (e ? reject(e) : resolve()))),
  };
}

export function createDirSink(dir: string): Sink {
  const files: string[] = [];
  function resolve(relativePath: string): string {
    const normalized = path.normalize(relativePath);
    // Paths come from env ids (user data): never let one escape the export folder.
    if (normalized.startsWith("..") || path.isAbsolute(normalized)) throw new Error(`unsafe export path ${relativePath}`);
    const full = path.join(dir, normalized);
    mkdirSync(path.dirname(full), { recursive: true });
    files.push(normalized.split(path.sep).join("/"));
    return full;
  }
  return {
    files,
    resolve,
    open: (relativePath) => handleFor(createWriteStream(resolve(relativePath), { highWaterMark: 1 << 20 })),
  };
}

/** Writes a whole small file at once (manifests, READMEs, package files). */
export async function writeWhole(sink: Sink, relativePath: string, content: string): Promise<number> {
  const file = sink.open(relativePath);
  await file.write(content);
  await file.close();
  return file.bytes;
}
