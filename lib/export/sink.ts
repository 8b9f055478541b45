/**
 * Where writers put files: a directory, opened file by file. Writes respect stream backpressure
 * so a 100k-scenario export holds one buffer per open file, not the whole output.
 */
import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import path from "node:path";

export type FileHandle = {
  write(chunk: string): Promise<void>;
  close(): Promise<void>;
  readonly bytes: number;
};
export type Sink = {
  open(relativePath: string): FileHandle;
  /** An absolute path for binary writers (parquet) that manage their own file. */
  resolve(relativePath: string): string;
  readonly files: string[];
};

/** Coalesces small writes into ~256 KB chunks: one stream write per row would dominate the cost. */
const CHUNK = 256 * 1024;

function handleFor(stream: WriteStream): FileHandle {
  let bytes = 0;
  let pending: string[] = [];
  let pendingLength = 0;
  let failure: Error | null = null;
  stream.on("error", (e) => (failure = e));
  const flush = (): Promise<void> => {
    if (failure) return Promise.reject(failure);
    const chunk = pending.join("");
    pending = [];
    pendingLength = 0;
    if (!chunk || stream.write(chunk)) return Promise.resolve();
    return new Promise((resolve) => stream.once("drain", resolve));
  };
  return {
    get bytes() {
      return bytes;
    },
    write(chunk) {
      bytes += Buffer.byteLength(chunk);
      pending.push(chunk);
      pendingLength += chunk.length;
      return pendingLength >= CHUNK ? flush() : Promise.resolve();
    },
    async close() {
      await flush();
      await new Promise<void>((resolve, reject) =>
        stream.end((e?: Error | null) => (e ? reject(e) : resolve())),
      );
    },
  };
}

export function createDirSink(dir: string): Sink {
  const files: string[] = [];
  function resolve(relativePath: string): string {
    const normalized = path.normalize(relativePath);
    // Paths come from env ids (user data): never let one escape the export folder.
    if (normalized.startsWith("..") || path.isAbsolute(normalized))
      throw new Error(`unsafe export path ${relativePath}`);
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
