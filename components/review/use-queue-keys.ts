"use client";
import { useEffectEvent, useLayoutEffect } from "react";

export type QueueKeyHandlers = {
  next: () => void;
  previous: () => void;
  accept: () => void;
  reject: () => void;
  edit: () => void;
  undo: () => void;
  select: () => void;
};

/** j/k move, a accepts, r starts a rejection, e opens the editor, u undoes, x ticks the row for a bulk decision. Ignored while typing in a field. */
export function useQueueKeys(handlers: QueueKeyHandlers) {
  // The listener is added once; it calls whichever handlers the latest render passed.
  const run = useEffectEvent((action: keyof QueueKeyHandlers) => handlers[action]());
  // A layout effect, not a passive one: a new filter remounts the queue, and passive cleanups run
  // some time after the new rows are painted. In that gap the old queue's listener would still
  // answer a key with the old rows ("e" opening an item the reviewer no longer sees).
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (
        e.metaKey ||
        e.ctrlKey ||
        e.altKey ||
        target?.closest("input, textarea, select, [contenteditable=true]")
      )
        return;
      const action = (
        { j: "next", k: "previous", a: "accept", r: "reject", e: "edit", u: "undo", x: "select" } as const
      )[e.key];
      if (!action) return;
      e.preventDefault();
      run(action);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
