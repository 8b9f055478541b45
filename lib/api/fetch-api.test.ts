import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError, errorFromAction } from "./api-error";
import { defineRoute, queryString } from "./api-route";
import { fetchApi } from "./fetch-api";

type Seen = { method: string; url: string; contentType: string | undefined; body: string };
type Handler = (seen: Seen, res: ServerResponse) => void;

/** A real HTTP server whose answer each test sets, recording what the helper sent. */
let server: Server;
let origin = "";
let handler: Handler = (_seen, res) => res.end();
let lastSeen: Seen | null = null;

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });

beforeAll(async () => {
  server = createServer((req, res) => {
    void readBody(req).then((body) => {
      lastSeen = {
        method: req.method ?? "",
        url: req.url ?? "",
        contentType: req.headers["content-type"],
        body,
      };
      handler(lastSeen, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const answer =
  (status: number, body: string, headers: Record<string, string> = {}): Handler =>
  (_seen, res) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(body);
  };

const ItemSchema = z.object({ id: z.string(), count: z.number(), when: z.string() });
const getItem = defineRoute({
  method: "GET",
  send: "query",
  url: ({ id, page }: { id: string; page?: number }) =>
    `/api/items/${encodeURIComponent(id)}${queryString({ page })}`,
  response: ItemSchema,
});
const postItem = defineRoute({
  method: "POST",
  send: "json",
  url: (_input: { name: string }) => "/api/items",
  response: ItemSchema,
});

/** The rejection of `promise`, which must be an ApiError. */
async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("fetchApi", () => {
  it("sends a query route's input in the URL and returns the answer parsed by the route's schema", async () => {
    handler = answer(200, JSON.stringify({ id: "a b", count: 2, when: "2026-01-01", extra: "dropped" }));
    const item = await fetchApi(getItem, { id: "a b", page: 3 }, { origin });
    expect(item).toEqual({ id: "a b", count: 2, when: "2026-01-01" });
    expect(lastSeen).toMatchObject({ method: "GET", url: "/api/items/a%20b?page=3", body: "" });
  });

  it("sends a JSON route's input as an application/json body", async () => {
    handler = answer(201, JSON.stringify({ id: "x", count: 0, when: "now" }));
    await fetchApi(postItem, { name: "new" }, { origin });
    expect(lastSeen).toMatchObject({
      method: "POST",
      url: "/api/items",
      contentType: "application/json",
      body: '{"name":"new"}',
    });
  });

  it("refuses a 2xx answer that does not match the schema, as a non-retryable contract error", async () => {
    handler = answer(200, JSON.stringify({ id: "x", count: "two" }));
    const e = await refusal(fetchApi(getItem, { id: "x" }, { origin }));
    expect(e).toMatchObject({ code: "INTERNAL", retryable: false, status: 200 });
    expect(e.message).toContain("GET");
    expect(e.message).toContain("/api/items/x");
    expect(e.message).toContain("count");
  });

  it("refuses a 2xx answer that is not JSON", async () => {
    handler = answer(200, "<html>hello</html>");
    const e = await refusal(fetchApi(getItem, { id: "x" }, { origin }));
    expect(e).toMatchObject({ code: "INTERNAL", retryable: false });
  });

  it("carries the server's code, message and retryability from the route wrapper's error body", async () => {
    handler = answer(
      409,
      JSON.stringify({ error: { code: "CONFLICT", message: "The item changed since.", retryable: false } }),
    );
    const conflict = await refusal(fetchApi(postItem, { name: "n" }, { origin }));
    expect(conflict).toMatchObject({
      code: "CONFLICT",
      message: "The item changed since.",
      retryable: false,
      status: 409,
    });

    handler = answer(
      429,
      JSON.stringify({ error: { code: "RATE_LIMITED", message: "Too many at once.", retryable: true } }),
      { "retry-after": "7" },
    );
    const limited = await refusal(fetchApi(postItem, { name: "n" }, { origin }));
    expect(limited).toMatchObject({
      code: "RATE_LIMITED",
      retryable: true,
      status: 429,
      retryAfterSeconds: 7,
    });

    handler = answer(
      500,
      JSON.stringify({
        error: {
          code: "INTERNAL",
          message: "Internal error; the details are in the server log.",
          retryable: true,
        },
      }),
    );
    const internal = await refusal(fetchApi(getItem, { id: "x" }, { origin }));
    expect(internal).toMatchObject({ code: "INTERNAL", retryable: true, status: 500 });
  });

  it("maps an answer without the error body by its status: 5xx retryable, 4xx not", async () => {
    handler = answer(502, "Bad gateway");
    expect(await refusal(fetchApi(getItem, { id: "x" }, { origin }))).toMatchObject({
      code: "INTERNAL",
      retryable: true,
      status: 502,
      message: "The server answered HTTP 502.",
    });
    handler = answer(404, "{}");
    expect(await refusal(fetchApi(getItem, { id: "x" }, { origin }))).toMatchObject({
      code: "NOT_FOUND",
      retryable: false,
      status: 404,
    });
    handler = answer(503, "");
    expect(await refusal(fetchApi(getItem, { id: "x" }, { origin }))).toMatchObject({
      code: "UNAVAILABLE",
      retryable: true,
    });
  });

  it("reports a server that cannot be reached as retryable UNAVAILABLE", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const e = await refusal(fetchApi(getItem, { id: "x" }, { origin: `http://127.0.0.1:${port}` }));
    expect(e).toMatchObject({ code: "UNAVAILABLE", retryable: true, status: null });
  });
});

describe("errorFromAction", () => {
  it("gives a server action's refusal the same shape as a route's", () => {
    const e = errorFromAction({
      code: "RATE_LIMITED",
      message: "Wait a moment.",
      retryable: true,
      details: { retryAfterSeconds: 3 },
    });
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({
      code: "RATE_LIMITED",
      message: "Wait a moment.",
      retryable: true,
      status: null,
    });
    expect(e.retryAfterSeconds).toBe(3);
    expect(e.details).toEqual({ retryAfterSeconds: 3 });
  });
});
