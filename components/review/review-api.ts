"use client";
/**
 * The review queue's calls, all route handlers through fetchApi: claims (taken on every j/k and
 * kept alive by a heartbeat, so they must not wait behind the router's action queue), and the one
 * way any page sends a decision or an undo, as mutations that invalidate what a decision changes.
 */
import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { fetchApi } from "@/lib/api/fetch-api";
import type { RouteInput } from "@/lib/api/api-route";
import { API } from "@/lib/api/routes";
import type { ClaimInput } from "@/lib/review/review.schema";
import { queryKeys } from "@/components/data/query-keys";

export const claimItem = (item: ClaimInput) => fetchApi(API.reviewClaim, item);
/** keepalive: a release sent while the tab closes still reaches the server. */
export const releaseItem = (item: ClaimInput) =>
  fetchApi(API.reviewRelease, item, { keepalive: true }).catch(() => undefined);

/**
 * A decision changes the item's status (environment lists, the queue's previews, a run's
 * environments). Not awaited: the queue moves on at once and the refetch happens behind it.
 */
function invalidateDecided(client: QueryClient) {
  void client.invalidateQueries({ queryKey: queryKeys.review.all });
  void client.invalidateQueries({ queryKey: queryKeys.environments.all });
  void client.invalidateQueries({ queryKey: queryKeys.run.any });
}

export function useDecideItem() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (decision: RouteInput<typeof API.reviewDecision>) => fetchApi(API.reviewDecision, decision),
    onSettled: () => invalidateDecided(client),
  });
}

export function useUndoDecision() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => fetchApi(API.reviewUndo, {}),
    onSettled: () => invalidateDecided(client),
  });
}
