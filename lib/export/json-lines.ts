/** Streaming JSON writers: a JSON array or object written one element per line, and JSONL. */
import type { FileHandle, Sink } from "./sink";

export type ArrayWriter = {
  push(value: unknown): Promise<void>;
  close(): Promise<void>;
  readonly count: number;
  readonly bytes: number;
};

/** `[\n{…},\n{…}\n]`: valid JSON for `json.load`, yet written (and diffed) one element per line. */
export function openJsonArray(sink: Sink, relativePath: string): ArrayWriter {
  const file = sink.open(relativePath);
  let count = 0;
  return {
    get count() {
      return count;
    },
    get bytes() {
      return file.bytes;
    },
    async push(value) {
      await file.write((count === 0 ? "[\n" : ",\n") + JSON.stringify(value));
      count += 1;
    },
    async close() {
      await file.write(count === 0 ? "[]\n" : "\n]\n");
      await file.close();
    },
  };
}

export function openJsonl(sink: Sink, relativePath: string): ArrayWriter {
  const file: FileHandle = sink.open(relativePath);
  let count = 0;
  return {
    get count() {
      return count;
    },
    get bytes() {
      return file.bytes;
    },
    async push(value) {
      await file.write(JSON.stringify(value) + "\n");
      count += 1;
    },
    close: () => file.close(),
  };
}

/** A JSON object keyed by id, one entry per line (EnvScaler's env metadata file). */
export async function writeKeyedObject(
  sink: Sink,
  relativePath: string,
  entries: [string, unknown][],
): Promise<number> {
  const file = sink.open(relativePath);
  const body = entries.map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`).join(",\n");
  await file.write(entries.length ? `{\n${body}\n}\n` : "{}\n");
  await file.close();
  return file.bytes;
}
