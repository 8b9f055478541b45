/**
 * The one shape of a route handler, like runAction for server actions: authorise → read and parse
 * the input with zod → run → map any error to a status and `{ error: { code, message, retryable } }`.
 *
 *   export const GET = apiRoute({ role: "VIEWER", schema: RunIdSchema, input: (_request, params) => params },
 *     async ({ id }) => NextResponse.json(await getRun(getDb(), id)));
 *
 * Built from an `authorise` function so the order and the error mapping are unit-tested without a
 * session store; api-route.ts wires the real session check.
 */
import type { NextRequest } from "next/server";
import type { z } from "zod";
import type { RoleName } from "@/lib/auth/roles";
import type { SessionUser } from "@/lib/auth/server/sessions";
import { parseInput } from "@/lib/core/parse-input";
import { errorResponse } from "./respond";

export type RouteSpec<S extends z.ZodType, P> = {
  /** The weakest role that may call the route; checked before the request is read. */
  role: RoleName;
  schema: S;
  /** What the schema parses: the JSON body, the query, the path params, form fields… */
  input: (request: NextRequest, params: P) => unknown;
};

export type RouteRun<S extends z.ZodType, P> = (
  input: z.infer<S>,
  user: SessionUser,
  request: NextRequest,
  params: P,
) => Promise<Response>;

/** What Next passes a handler as its second argument; absent in a unit test that calls it directly. */
export type RouteContext<P> = { params: Promise<P> };

export function createApiRoute(authorise: (role: RoleName) => Promise<SessionUser>) {
  return function apiRoute<S extends z.ZodType, P extends Record<string, string> = Record<string, never>>(
    spec: RouteSpec<S, P>,
    run: RouteRun<S, P>,
  ) {
    return async (request: NextRequest, context?: RouteContext<P>): Promise<Response> => {
      try {
        // Authorise first: an anonymous or too-weak caller learns nothing about the expected input.
        const user = await authorise(spec.role);
        const params = ((await context?.params) ?? {}) as P;
        const input = parseInput(spec.schema, await spec.input(request, params));
        return await run(input, user, request, params);
      } catch (error) {
        return errorResponse(error);
      }
    };
  };
}
