/**
 * Splits a child's stdout into lines with a hard cap per line: a runaway or hostile child must
 * not make the server buffer unbounded output.
 */
import type { Readable } from "node:stream";

export type LineHandlers = { onLine: (line: string) => void; onOverflow: () => void };

export function readLines(stream: Readable, maxLineBytes: number, handlers: LineHandlers): void {
  let chunks: Buffer[] = [];
  let size = 0;
  stream.on("data", (data: Buffer) => {
    let start = 0;
    for (let nl = data.indexOf(10, start); nl !== -1; nl = data.indexOf(10, start)) {
      chunks.push(data.subarray(start, nl));
      const line = Buffer.concat(chunks).toString("utf8");
      chunks = [];
      size = 0;
      start = nl + 1;
      if (line.length > 0) handlers.onLine(line);
    }
    if (start < data.length) {
      chunks.push(data.subarray(start));
      size += data.length - start;
      if (size > maxLineBytes) {
        chunks = [];
        size = 0;
        handlers.onOverflow();
      }
    }
  });
}

/** Keeps the last `max` characters of a stream (for error messages about a dead child). */
export function tailOf(stream: Readable, max = 4096): () => string {
  let tail = "";
  stream.on("data", (data: Buffer) => {
    tail = (tail + data.toString("utf8")).slice(-max);
  });
  return () => tail;
}
