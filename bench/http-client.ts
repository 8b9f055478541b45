/**
 * BENCH ONLY. The HTTP side of the serve bench's load generator: HTTP/1.1 written and read
 * straight on kept-alive TCP sockets, one request at a time per socket, as the WebSocket lane's
 * client (`ws`) holds one socket per session and reads its frames. The load generator shares the
 * machine's cores with the server under test, so what a request costs the client counts against
 * the server: node:http's client (ClientRequest, an agent, IncomingMessage streams) cost the
 * load generator about twice the WebSocket client's CPU per step, and Node's fetch (undici) several
 * times more (`npm run bench -- mcp-calls`). The serve bench prints each lane's load-generator
 * CPU per step, so that what the client costs stays in view.
 *
 * It reads what the servers under test send: a status line, headers, then a body framed by
 * Content-Length or chunked transfer coding, or none (1xx, 204, 304), or one that runs to the
 * connection's close. A reused socket that the server closed while idle is retried once on a
 * fresh one, as node:http's agent does.
 */
import net from "node:net";

export type HttpReply = { status: number; headers: Record<string, string>; text: string };

const HEAD_END = Buffer.from("\r\n\r\n");
const CRLF = Buffer.from("\r\n");

type Head = { status: number; headers: Record<string, string>; bodyStart: number };

function parseHead(buf: Buffer): Head | null {
  const end = buf.indexOf(HEAD_END);
  if (end < 0) return null;
  const lines = buf.toString("latin1", 0, end).split("\r\n");
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? "");
  if (!status?.[1]) throw new Error(`not an HTTP/1.1 response: ${JSON.stringify(lines[0])}`);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return { status: Number(status[1]), headers, bodyStart: end + HEAD_END.length };
}

/** The body of a chunked message from `from`, or null while incomplete. */
function dechunk(buf: Buffer, from: number): { body: Buffer; end: number } | null {
  const parts: Buffer[] = [];
  let at = from;
  for (;;) {
    const lineEnd = buf.indexOf(CRLF, at);
    if (lineEnd < 0) return null;
    const size = parseInt(buf.toString("latin1", at, lineEnd).split(";")[0] ?? "", 16);
    if (!Number.isFinite(size)) throw new Error("malformed chunk size");
    at = lineEnd + CRLF.length;
    if (size === 0) {
      // The last chunk is followed by trailer fields, if any, and an empty line.
      if (buf.length < at + CRLF.length) return null;
      if (buf.indexOf(CRLF, at) === at) return { body: Buffer.concat(parts), end: at + CRLF.length };
      const trailersEnd = buf.indexOf(HEAD_END, at);
      if (trailersEnd < 0) return null;
      return { body: Buffer.concat(parts), end: trailersEnd + HEAD_END.length };
    }
    if (buf.length < at + size + CRLF.length) return null;
    parts.push(buf.subarray(at, at + size));
    at += size + CRLF.length;
  }
}

/** One kept-alive connection; requests on it go one after another. */
class Connection {
  private buffer: Buffer = Buffer.alloc(0);
  private pending: {
    resolve: (r: HttpReply) => void;
    reject: (e: Error) => void;
    method: string;
  } | null = null;
  /** Whether a byte of the current response has arrived (a failure before it may be retried). */
  answered = false;
  closed = false;
  /** Set while the response being read runs to the connection's close. */
  private untilClose: Head | null = null;

  constructor(private readonly socket: net.Socket) {
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => {
      this.answered = true;
      this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
      this.read();
    });
    socket.on("error", (e) => this.fail(e));
    socket.on("close", () => {
      this.closed = true;
      if (this.untilClose) {
        const head = this.untilClose;
        this.untilClose = null;
        return this.settle(head, this.buffer.subarray(head.bodyStart));
      }
      this.fail(new Error("the server closed the connection"));
    });
  }

  static open(host: string, port: number): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host, port });
      socket.once("connect", () => resolve(new Connection(socket)));
      socket.once("error", reject);
    });
  }

  request(head: string, body: Buffer | undefined, method: string): Promise<HttpReply> {
    if (this.closed) return Promise.reject(new Error("the server closed the connection"));
    this.answered = false;
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject, method };
      this.socket.write(body ? Buffer.concat([Buffer.from(head, "latin1"), body]) : head);
    });
  }

  private read() {
    if (!this.pending || this.untilClose) return;
    let head: Head | null;
    try {
      head = parseHead(this.buffer);
    } catch (e) {
      return this.fail(e as Error);
    }
    if (!head) return;
    const { status, headers, bodyStart } = head;
    const noBody = this.pending.method === "HEAD" || status < 200 || status === 204 || status === 304;
    if (noBody) return this.settle(head, Buffer.alloc(0), bodyStart);
    if (/chunked/i.test(headers["transfer-encoding"] ?? "")) {
      let chunked: ReturnType<typeof dechunk>;
      try {
        chunked = dechunk(this.buffer, bodyStart);
      } catch (e) {
        return this.fail(e as Error);
      }
      if (chunked) this.settle(head, chunked.body, chunked.end);
      return;
    }
    const length = headers["content-length"];
    if (length === undefined) {
      this.untilClose = head; // no framing: the body is everything until the server closes
      return;
    }
    const end = bodyStart + Number(length);
    if (this.buffer.length >= end) this.settle(head, this.buffer.subarray(bodyStart, end), end);
  }

  private settle(head: Head, body: Buffer, consumed = this.buffer.length) {
    const pending = this.pending;
    this.pending = null;
    this.buffer = this.buffer.subarray(consumed);
    if (/\bclose\b/i.test(head.headers.connection ?? "")) this.closed = true;
    pending?.resolve({ status: head.status, headers: head.headers, text: body.toString("utf8") });
  }

  private fail(error: Error) {
    this.closed = true;
    this.socket.destroy();
    const pending = this.pending;
    this.pending = null;
    pending?.reject(error);
  }

  close() {
    this.closed = true;
    this.socket.destroy();
  }
}

/** Idle connections per host:port. */
const idle = new Map<string, Connection[]>();

function requestHead(url: URL, method: string, headers: Record<string, string>, length?: number): string {
  let head = `${method} ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  if (length !== undefined) head += `Content-Length: ${length}\r\n`;
  return `${head}\r\n`;
}

export async function httpRequest(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<HttpReply> {
  const key = url.host;
  const bytes = body === undefined ? undefined : Buffer.from(body, "utf8");
  const head = requestHead(url, method, headers, bytes?.length);
  const pool = idle.get(key) ?? [];
  idle.set(key, pool);
  for (let attempt = 0; ; attempt++) {
    let connection = pool.pop();
    while (connection?.closed) connection = pool.pop();
    const reused = connection !== undefined;
    connection ??= await Connection.open(url.hostname, Number(url.port || 80));
    try {
      const reply = await connection.request(head, bytes, method);
      if (!connection.closed) pool.push(connection);
      return reply;
    } catch (error) {
      // A kept-alive socket the server closed while it sat idle: once more, on a new one.
      if (reused && !connection.answered && attempt === 0) continue;
      throw error;
    }
  }
}

/** Closes every idle connection (a bench's end). */
export function closeIdleConnections() {
  for (const pool of idle.values()) for (const c of pool.splice(0)) c.close();
}
