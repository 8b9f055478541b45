"use client";
/**
 * The claim on the selected queue item: taken on selection, kept alive by a heartbeat while the
 * page is open (claims expire after CLAIM_TTL_MS), released when the selection moves, and released
 * by a beacon when the page is hidden for good (closed, or left for another page), so the item is
 * free at once. The beacon is best effort: a browser gives a closing tab's handlers only a moment,
 * and one starved of CPU may close the tab first; the claim then lapses after CLAIM_TTL_MS.
 */
import { useMutation } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { sendBeaconApi } from "@/lib/api/fetch-api";
import { API } from "@/lib/api/routes";
import { CLAIM_HEARTBEAT_MS, type ReviewKind } from "@/lib/review/review.schema";
import { mutations } from "@/components/data/mutations";

export type Claim = { state: "claiming" } | { state: "mine" } | { state: "taken"; heldBy: string };

const CLAIMING: Claim = { state: "claiming" };

export function useItemClaim(current: { kind: ReviewKind; id: string } | undefined, enabled: boolean) {
  // The server's latest answer for the item claimed now; until it arrives the claim is in flight.
  const [answer, setAnswer] = useState<{ key: string; claim: Claim } | null>(null);
  // Both stable across renders (TanStack's mutate functions are bound once per observer).
  const { mutateAsync: claimItem } = useMutation(mutations.reviewClaim());
  const { mutate: releaseItem } = useMutation(mutations.reviewRelease());
  const kind = current?.kind;
  const id = current?.id;
  useEffect(() => {
    if (!kind || !id || !enabled) return;
    const item = { kind, id };
    const key = `${kind}:${id}`;
    let isCurrent = true;
    const settle = (claim: Claim) => {
      if (isCurrent) setAnswer({ key, claim });
    };
    const claim = () =>
      claimItem(item).then(
        (r) => settle(r.claimed ? { state: "mine" } : { state: "taken", heldBy: r.heldBy }),
        (e: Error) => settle({ state: "taken", heldBy: e.message }),
      );
    void claim();
    // Re-claiming one's own item extends it; a taken item is retried in case it was freed.
    const heartbeat = setInterval(() => void claim(), CLAIM_HEARTBEAT_MS);
    const onHide = () => sendBeaconApi(API.reviewReleaseBeacon, item);
    window.addEventListener("pagehide", onHide);
    return () => {
      isCurrent = false;
      // Selecting the item again starts over at "claiming", not at the released claim's answer.
      setAnswer(null);
      clearInterval(heartbeat);
      window.removeEventListener("pagehide", onHide);
      releaseItem(item);
    };
  }, [kind, id, enabled, claimItem, releaseItem]);
  if (!kind || !id || !enabled) return undefined;
  return answer?.key === `${kind}:${id}` ? answer.claim : CLAIMING;
}
