/**
 * A route handler as the pages call it: method, URL for an input, how the input travels, and the zod
 * schema of its answer. The route handler answers through the same descriptor (app/api/respond.ts
 * `respondWith`), so the type checker holds the server to the shape the client parses.
 */
import type { z } from "zod";

export type HttpMethod = "GET" | "POST" | "DELETE";

/**
 * `query`: the input is the URL (path params and query string, built by `url`).
 * `json`: the input is also the JSON body. `form`: the input is a FormData body (multipart).
 */
export type InputEncoding = "query" | "json" | "form";

export type ApiRoute<Input, Response extends z.ZodType> = {
  method: HttpMethod;
  send: InputEncoding;
  url: (input: Input) => string;
  response: Response;
};

export type RouteInput<R> = R extends ApiRoute<infer I, z.ZodType> ? I : never;
export type RouteResponse<R> = R extends ApiRoute<unknown, infer S> ? z.output<S> : never;

/** Identity, there to infer `Input` from `url` and check the descriptor's fields. */
export const defineRoute = <Input, Response extends z.ZodType>(route: ApiRoute<Input, Response>) => route;

/** A GET: the input travels in the URL `url` builds. */
export const queryRoute = <Input, Response extends z.ZodType>(
  url: (input: Input) => string,
  response: Response,
) => defineRoute({ method: "GET", send: "query", url, response });

/** A POST (or DELETE) whose input is the JSON body; `url` types the input and names the path. */
export const jsonRoute = <Input, Response extends z.ZodType>(
  url: (input: Input) => string,
  response: Response,
  method: "POST" | "DELETE" = "POST",
) => defineRoute({ method, send: "json", url, response });

/** `?a=1&b=x` from the defined, non-empty values (`""` when none). */
export function queryString(values: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values))
    if (value !== undefined && value !== "") params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : "";
}
