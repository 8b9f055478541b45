/**
 * The writes pages share, each as mutation options: what it sends (a route through fetchApi, or a
 * server action through unwrapAction) and what it invalidates, by the same key factories the reads
 * use. A component spreads one into useMutation and adds only what is its own (a message, a
 * navigation). A write only one form makes keeps its useMutation in that form, built the same way.
 */
import { type QueryClient, mutationOptions } from "@tanstack/react-query";
import { loginAction, logoutAction } from "@/app/login/actions";
import { fetchApi } from "@/lib/api/fetch-api";
import type { RouteInput } from "@/lib/api/api-route";
import { API } from "@/lib/api/routes";
import type { ClaimInput } from "@/lib/review/review.schema";
import { queryKeys } from "./query-keys";
import { unwrapAction } from "./unwrap-action";

/**
 * A decision changes the item's status (environment lists, the queue's previews, a run's
 * environments). Not awaited: the queue moves on at once and the refetch happens behind it.
 */
function invalidateDecided(client: QueryClient) {
  void client.invalidateQueries({ queryKey: queryKeys.review.all });
  void client.invalidateQueries({ queryKey: queryKeys.environments.all });
  void client.invalidateQueries({ queryKey: queryKeys.run.any });
}

export const mutations = {
  /**
   * Claims are route handlers, not server actions: the queue claims on every j/k and on a heartbeat,
   * and these calls must not wait behind (or re-render with) the router's action queue.
   */
  reviewClaim: () => mutationOptions({ mutationFn: (item: ClaimInput) => fetchApi(API.reviewClaim, item) }),
  /** keepalive: a release sent while the tab closes still reaches the server. */
  reviewRelease: () =>
    mutationOptions({
      mutationFn: (item: ClaimInput) => fetchApi(API.reviewRelease, item, { keepalive: true }),
    }),
  /** The one way any page sends a decision. */
  reviewDecision: (client: QueryClient) =>
    mutationOptions({
      mutationFn: (decision: RouteInput<typeof API.reviewDecision>) => fetchApi(API.reviewDecision, decision),
      onSettled: () => invalidateDecided(client),
    }),
  reviewUndo: (client: QueryClient) =>
    mutationOptions({
      mutationFn: () => fetchApi(API.reviewUndo, {}),
      onSettled: () => invalidateDecided(client),
    }),
  /** Answers where to go next; the form loads it afresh, so nothing read as someone else stays cached. */
  logIn: () =>
    mutationOptions({
      mutationFn: (input: Record<string, unknown>) => unwrapAction(loginAction(input)),
    }),
  logOut: () => mutationOptions({ mutationFn: () => unwrapAction(logoutAction({})) }),
};
