import { DELETE } from "../route";

export const dynamic = "force-dynamic";

/**
 * POST {kind, id}: release a claim — the same handler as DELETE /api/review/claims. The queue sends
 * it with navigator.sendBeacon when the page is hidden for good (tab closed, navigation away), and a
 * beacon can only POST. Like every JSON route it takes only application/json: the beacon sends a
 * Blob of that type, and the browser adds the page's Origin, so proxy.ts lets the studio's own pages
 * through.
 */
export const POST = DELETE;
