/**
 * What both MCP endpoints (mcp-http.ts, mcp-episodes.ts) share on the wire: how an episode's
 * start is asked for and refused, JSON-RPC error bodies, and bounded body reads.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { endReply } from "./http-reply";
import { HttpError, MAX_BODY } from "./http-routes";
import type { ServeError } from "./sessions";

/** The SDK's code for an unknown session (its transport answers the same). */
export const SESSION_NOT_FOUND = -32001;

/** Which scenario an episode starts on: named, or picked as a reset picks it (by seed when given). */
export const StartSchema = z.object({
  scenario: z.string().min(1).max(255).optional(),
  seed: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  split: z.enum(["train", "test"]).optional(),
  index: z.number().int().min(0).optional(),
});
/** Why an episode cannot be started or found: HTTP status, JSON-RPC code, message. */
export type Refusal = { error: string; status: number; code: number };

export function sendRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers = {},
) {
  endReply(
    res,
    status,
    { "content-type": "application/json", ...headers },
    JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } }),
  );
}

export const START_STATUS: Record<ServeError["code"], number> = {
  NOT_FOUND: 404,
  INVALID: 400,
  FORBIDDEN: 403,
  CAPACITY: 503,
  SANDBOX: 502,
  GONE: 410,
};

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  endReply(res, status, { "content-type": "application/json", ...headers }, JSON.stringify(body));
}

/** The body as text; past MAX_BODY the rest is read and dropped (so that the client hears the 413
 * instead of a reset connection) and the read fails. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on("end", () =>
      size > MAX_BODY
        ? reject(new HttpError(413, `Request body larger than ${MAX_BODY} bytes`))
        : resolve(Buffer.concat(chunks).toString("utf8")),
    );
    req.on("error", reject);
  });
}
