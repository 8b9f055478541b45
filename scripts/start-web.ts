/**
 * The studio's web server (`npm start` runs it through scripts/start.ts; `--dev` serves `next dev`):
 * Next.js's own request handler behind a Node HTTP server that stamps every request with its
 * socket's peer address (lib/auth/client-address.ts). Next gives pages, actions, route handlers and
 * proxy.ts no socket, and its X-Forwarded-For is whatever the client sent; the peer address is what
 * decides who may act as the anonymous local admin and what sign-in throttling counts.
 * It listens on HOST:PORT and refuses to serve a login-less studio on a non-loopback address.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import next from "next";
import { markPeerStamping, PEER_HEADER } from "../lib/auth/client-address";
import type { IpRanges } from "../lib/auth/ip-ranges";
import { refuseLoginlessBind } from "../lib/auth/login-policy";
import { parseEnv } from "../lib/env";

const ROOT = path.resolve(import.meta.dirname, "..");
/** X-Forwarded-For stays: the app reads it to tell that an untrusted peer forwards for someone. */
const UNTRUSTED_FORWARDING = ["x-forwarded-proto", "x-forwarded-host", "x-forwarded-port"];

function fail(message: string): never {
  console.error(`\n[envstudio] ${message}\n`);
  process.exit(1);
}

/** What the app learns about the connection (lib/auth/client-address.ts) before Next.js sees the request. */
function stampConnection(req: http.IncomingMessage, trusted: IpRanges): void {
  const peer = req.socket.remoteAddress ?? "";
  // Assignment replaces any value a client sent under this name (Node joins repeats into one).
  req.headers[PEER_HEADER] = peer;
  // Next.js builds absolute URLs (redirects, its own action checks) from these when present and
  // fills them from the socket when absent: only a trusted proxy may set them.
  if (!trusted.has(peer)) for (const name of UNTRUSTED_FORWARDING) delete req.headers[name];
}

async function main(): Promise<void> {
  const dev = process.argv.includes("--dev");
  let env;
  try {
    env = parseEnv();
  } catch (error) {
    fail((error as Error).message);
  }
  const server = http.createServer();
  const app = next({ dev, dir: ROOT, hostname: env.HOST, port: env.PORT, httpServer: server });
  await app.prepare();
  const handle = app.getRequestHandler();
  markPeerStamping();
  server.once("error", (error: NodeJS.ErrnoException) => fail(`the web server stopped: ${error.message}`));
  await new Promise<void>((resolve) => server.listen(env.PORT, env.HOST, resolve));
  // Checked on the address actually bound (HOST=localhost may resolve elsewhere), before the first
  // request is handled: connections are served from a later tick than this one.
  const refusal = refuseLoginlessBind((server.address() as AddressInfo).address);
  if (refusal) fail(refusal);
  server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    stampConnection(req, env.ENVSTUDIO_TRUSTED_PROXIES);
    handle(req, res).catch((error: unknown) => {
      // Next answers its own errors; one escaping it must not take the whole server down.
      console.error(`[envstudio] failed to handle ${req.method} ${req.url}:`, error);
      if (res.headersSent) res.destroy();
      else res.writeHead(500).end("Internal Server Error");
    });
  });

  const stop = () => {
    server.closeAllConnections();
    server.close();
    void app.close().finally(() => process.exit(0));
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

await main();
