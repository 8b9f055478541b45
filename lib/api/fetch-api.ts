/**
 * The one way pages call route handlers: send the input as the route says, parse a 2xx answer with
 * the route's response schema, and turn everything else into an ApiError that says whether a retry
 * could help. No cast stands between the wire and the component.
 */
import { z } from "zod";
import { ApiError, errorFromResponse } from "./api-error";
import type { ApiRoute } from "./api-route";

export type FetchOptions = {
  signal?: AbortSignal;
  /** Lets a request sent while the tab closes still reach the server (a claim release). */
  keepalive?: boolean;
  /** Where the studio runs; the browser's own origin when absent (tests and scripts pass one). */
  origin?: string;
};

function requestInit<I>(route: ApiRoute<I, z.ZodType>, input: I, options: FetchOptions): RequestInit {
  const init: RequestInit = { method: route.method, cache: "no-store", signal: options.signal };
  if (options.keepalive) init.keepalive = true;
  if (route.send === "json") {
    init.headers = { "content-type": "application/json" };
    init.body = JSON.stringify(input);
  } else if (route.send === "form") {
    // The browser sets the multipart boundary itself.
    init.body = input as FormData;
  }
  return init;
}

const readJson = (res: Response): Promise<unknown> => res.json().catch(() => undefined);

/**
 * A JSON POST a closing page still delivers (navigator.sendBeacon); no answer comes back to read.
 * False when the browser would not queue it.
 */
export function sendBeaconApi<I>(route: ApiRoute<I, z.ZodType>, input: I): boolean {
  if (route.method !== "POST" || route.send !== "json")
    throw new Error(`a beacon can only POST JSON, not ${route.method} ${route.send}`);
  return navigator.sendBeacon(
    route.url(input),
    new Blob([JSON.stringify(input)], { type: "application/json" }),
  );
}

export async function fetchApi<I, S extends z.ZodType>(
  route: ApiRoute<I, S>,
  input: I,
  options: FetchOptions = {},
): Promise<z.output<S>> {
  const url = (options.origin ?? "") + route.url(input);
  const label = `${route.method} ${url.split("?")[0]}`;
  let res: Response;
  try {
    res = await fetch(url, requestInit(route, input, options));
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    throw new ApiError("UNAVAILABLE", `Could not reach the studio (${label}).`, {
      retryable: true,
      cause,
    });
  }
  const body = await readJson(res);
  if (!res.ok) throw errorFromResponse(res.status, body, res.headers.get("retry-after"));
  const parsed = route.response.safeParse(body);
  if (!parsed.success)
    // The server and this page disagree on the contract (a deploy between load and call): reloading
    // the page helps, repeating the call does not.
    throw new ApiError("INTERNAL", `Unexpected answer from ${label}: ${z.prettifyError(parsed.error)}`, {
      retryable: false,
      status: res.status,
    });
  return parsed.data;
}
