import type { ReviewKind } from "@/lib/review/review.schema";
import { Button } from "@/components/ui/button";

/** How much is waiting and how much was decided today, counting decisions made on this page. */
export function QueueProgress({
  counts,
  decidedToday,
  decidedHere,
  claimedByOthers,
}: {
  counts: Record<ReviewKind, number>;
  decidedToday: { mine: number; all: number };
  decidedHere: number;
  claimedByOthers: number;
}) {
  const waiting = counts.environment + counts.scenario + counts.trajectory;
  return (
    <p className="text-sm text-slate-500" data-testid="queue-progress">
      {waiting} waiting · you decided {decidedToday.mine + decidedHere} today (
      {decidedToday.all + decidedHere} by everyone)
      {claimedByOthers ? ` · ${claimedByOthers} being reviewed by others` : ""}
    </p>
  );
}

/** The keyboard shortcuts of the queue (handled by useQueueKeys). */
export function QueueKeyHelp() {
  return (
    <p className="text-xs text-slate-500">
      Keys: <kbd>j</kbd>/<kbd>k</kbd> next/previous · <kbd>a</kbd> accept · <kbd>r</kbd> reject with reason ·{" "}
      <kbd>e</kbd> edit · <kbd>u</kbd> undo the last decision · <kbd>x</kbd> select for a bulk decision
      (shift-click a box to select a range)
    </p>
  );
}

/** The outcome of the last decision or undo; after a decision it offers the undo as a button too. */
export function QueueMessage({
  message,
  canUndo,
  pending,
  onUndo,
}: {
  message: { ok: boolean; text: string };
  canUndo: boolean;
  pending: boolean;
  onUndo: () => void;
}) {
  return (
    <p
      role={message.ok ? "status" : "alert"}
      data-testid="queue-message"
      className={message.ok ? "text-sm text-emerald-700" : "text-sm text-rose-700"}
    >
      {message.text}
      {canUndo && message.ok ? (
        <Button variant="secondary" size="xs" className="ml-2" onClick={onUndo} disabled={pending}>
          Undo
        </Button>
      ) : null}
    </p>
  );
}
