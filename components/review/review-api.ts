"use client";
import type { z } from "zod";
import type { ClaimInput, DecideItemInputSchema } from "@/lib/review/review.schema";

export type ClaimReply = { claimed: true; expiresAt: string } | { claimed: false; heldBy: string };

async function call<T>(method: string, url: string, body: unknown): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    keepalive: method === "DELETE",
  });
  const json = (await res.json().catch(() => ({}))) as T & { error?: { message: string } };
  if (!res.ok) throw new Error(json.error?.message ?? `HTTP ${res.status}`);
  return json;
}

export const claimItem = (item: ClaimInput) => call<ClaimReply>("POST", "/api/review/claims", item);
/** keepalive: a release sent while the tab closes still reaches the server. */
export const releaseItem = (item: ClaimInput) =>
  call<{ released: number }>("DELETE", "/api/review/claims", item).catch(() => undefined);
export const decideItem = (input: z.input<typeof DecideItemInputSchema>) =>
  call<{ decisionId: string }>("POST", "/api/review/decisions", input);
export const undoLastDecision = () =>
  call<{ decisionId: string; kind: string; id: string }>("POST", "/api/review/undo", {});
