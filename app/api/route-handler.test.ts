import { NextRequest } from "next/server";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { RoleName } from "@/lib/auth/roles";
import type { SessionUser } from "@/lib/auth/server/sessions";
import { AppError } from "@/lib/core/errors";
import { readJsonBody } from "./respond";
import { createApiRoute } from "./route-handler";

const REVIEWER: SessionUser = { id: "u1", email: "r@example.test", name: "R", role: "REVIEWER" };
const ItemSchema = z.object({ id: z.string().min(1), count: z.number().int() });

/** A route whose steps record themselves, so the test sees what ran and in which order. */
function recordingRoute(authorise: (role: RoleName) => Promise<SessionUser>) {
  const steps: string[] = [];
  const apiRoute = createApiRoute(async (role) => {
    steps.push(`authorise ${role}`);
    return authorise(role);
  });
  const handler = apiRoute(
    {
      role: "REVIEWER",
      schema: ItemSchema,
      input: async (request: NextRequest, params: { id: string }) => {
        steps.push("read input");
        return { ...((await readJsonBody(request)) as object), id: params.id };
      },
    },
    (input, user, _request, params) => {
      steps.push("run");
      if (input.count < 0) return Promise.reject(new Error("connection to 10.0.0.3:5432 refused"));
      if (input.count > 100)
        return Promise.reject(
          new AppError("RATE_LIMITED", "Too many at once.", { details: { retryAfterSeconds: 7 } }),
        );
      return Promise.resolve(Response.json({ input, user: user.email, params }));
    },
  );
  return { steps, handler };
}

const post = (body: unknown, contentType = "application/json") =>
  new NextRequest("http://localhost/api/items/abc", {
    method: "POST",
    headers: { "content-type": contentType },
    body: JSON.stringify(body),
  });
const params = (id: string) => ({ params: Promise.resolve({ id }) });

describe("apiRoute", () => {
  it("authorises with the route's role, then parses, then runs with the parsed input, the user and the params", async () => {
    const { steps, handler } = recordingRoute(() => Promise.resolve(REVIEWER));
    const res = await handler(post({ count: 2, extra: "dropped" }), params("abc"));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      input: { id: "abc", count: 2 },
      user: REVIEWER.email,
      params: { id: "abc" },
    });
    expect(steps).toEqual(["authorise REVIEWER", "read input", "run"]);
  });

  it.each([
    ["UNAUTHENTICATED", "Sign in to continue.", 401],
    ["FORBIDDEN", "This needs the reviewer role; you are signed in as a viewer.", 403],
  ] as const)(
    "refuses a caller the session check rejects (%s) before reading the request",
    async (code, message, status) => {
      const { steps, handler } = recordingRoute(() => Promise.reject(new AppError(code, message)));
      const res = await handler(post({ count: 1 }), params("abc"));
      expect(res.status).toBe(status);
      expect(await res.json()).toEqual({ error: { code, message, retryable: false } });
      expect(steps).toEqual(["authorise REVIEWER"]);
    },
  );

  it("answers input the schema refuses with 400 naming the field, without running", async () => {
    const { steps, handler } = recordingRoute(() => Promise.resolve(REVIEWER));
    const res = await handler(post({ count: "two" }), params("abc"));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string; retryable: boolean } };
    expect(body.error).toMatchObject({ code: "INVALID_INPUT", retryable: false });
    expect(body.error.message).toMatch(/^count: /);
    expect(steps).not.toContain("run");
  });

  it("keeps the status of a refusal raised while reading (415 for the wrong content type)", async () => {
    const { steps, handler } = recordingRoute(() => Promise.resolve(REVIEWER));
    const res = await handler(post({ count: 1 }, "text/plain"), params("abc"));
    expect(res.status).toBe(415);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
      "Send application/json, not text/plain.",
    );
    expect(steps).toEqual(["authorise REVIEWER", "read input"]);
  });

  it("says when to retry a rate-limited call", async () => {
    const { handler } = recordingRoute(() => Promise.resolve(REVIEWER));
    const res = await handler(post({ count: 101 }), params("abc"));
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("7");
    expect(await res.json()).toEqual({
      error: { code: "RATE_LIMITED", message: "Too many at once.", retryable: true },
    });
  });

  it("reports an unexpected failure as a retryable 500 without its internals", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { handler } = recordingRoute(() => Promise.resolve(REVIEWER));
    const res = await handler(post({ count: -1 }), params("abc"));
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain("10.0.0.3");
    expect(JSON.parse(text)).toEqual({
      error: {
        code: "INTERNAL",
        message: "Internal error; the details are in the server log.",
        retryable: true,
      },
    });
    expect(logged).toHaveBeenCalledOnce();
    logged.mockRestore();
  });

  it("works without a context (a route with no dynamic segment)", async () => {
    const apiRoute = createApiRoute(() => Promise.resolve(REVIEWER));
    const handler = apiRoute(
      { role: "VIEWER", schema: z.object({}), input: () => ({}) },
      (_input, _user, _request, p) => Promise.resolve(Response.json(p)),
    );
    expect(await (await handler(new NextRequest("http://localhost/api/x"))).json()).toEqual({});
  });
});
