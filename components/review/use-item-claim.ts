"use client";
/**
 * The claim on the selected queue item: taken on selection, kept alive by a heartbeat while the
 * page is open (claims expire after CLAIM_TTL_MS), released when the selection moves, and released
 * by a beacon when the page is hidden for good, so a closed tab frees the item at once.
 */
import { useEffect, useState } from "react";
import { CLAIM_HEARTBEAT_MS, type ReviewKind } from "@/lib/review/review.schema";
import { claimItem, releaseItem } from "./review-api";

export type Claim = { state: "claiming" } | { state: "mine" } | { state: "taken"; heldBy: string };

export function useItemClaim(current: { kind: ReviewKind; id: string } | undefined, enabled: boolean) {
  const [claims, setClaims] = useState<Record<string, Claim>>({});
  const kind = current?.kind;
  const id = current?.id;
  useEffect(() => {
    if (!kind || !id || !enabled) return;
    const item = { kind, id };
    const key = `${kind}:${id}`;
    const claim = () =>
      claimItem(item).then(
        (r) => setClaims((c) => ({ ...c, [key]: r.claimed ? { state: "mine" } : { state: "taken", heldBy: r.heldBy } })),
        (e: Error) => setClaims((c) => ({ ...c, [key]: { state: "taken", heldBy: e.message } })),
      );
    setClaims((c) => ({ ...c, [key]: { state: "claiming" } }));
    void claim();
    // Re-claiming one's own item extends it; a taken item is retried in case it was freed.
    const heartbeat = setInterval(() => void claim(), CLAIM_HEARTBEAT_MS);
    const onHide = () => navigator.sendBeacon("/api/review/claims/release", new Blob([JSON.stringify(item)], { type: "application/json" }));
    window.addEventListener("pagehide", onHide);
    return () => {
      clearInterval(heartbeat);
      window.removeEventListener("pagehide", onHide);
      void releaseItem(item);
    };
  }, [kind, id, enabled]);
  return kind && id ? claims[`${kind}:${id}`] : undefined;
}
