"use client";
import { type RefObject, useEffectEvent, useLayoutEffect } from "react";

/** Ctrl on Linux/Windows, Cmd on macOS: either one counts as "mod". */
export type Hotkey = "mod+s" | "mod+enter";

const hotkeyOf = (e: KeyboardEvent): Hotkey | null => {
  if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return null;
  if (e.key === "Enter") return "mod+enter";
  if (e.key.toLowerCase() === "s") return "mod+s";
  return null;
};

/**
 * Editor shortcuts (Ctrl/Cmd+S saves, Ctrl/Cmd+Enter runs). By default the listener runs in the
 * capture phase, so it sees the key before Monaco does (Monaco binds Ctrl+Enter to "insert line
 * below") and before the browser's own Save dialog; a handled key goes no further. With `target`,
 * only keys pressed inside that element count (one of several editors on a page); without it, the
 * whole window. `capture: false` makes a window-wide fallback that sees only keys no editor took.
 */
export function useHotkeys(
  handlers: Partial<Record<Hotkey, () => void>>,
  options: { target?: RefObject<HTMLElement | null>; enabled?: boolean; capture?: boolean } = {},
) {
  const { target, enabled = true, capture = true } = options;
  // The listener is added once per element; it calls whichever handlers the latest render passed.
  const run = useEffectEvent((e: KeyboardEvent) => {
    const key = hotkeyOf(e);
    const handler = key ? handlers[key] : undefined;
    if (!handler || e.defaultPrevented) return;
    e.preventDefault();
    e.stopPropagation();
    handler();
  });
  // A layout effect, as for the review queue's keys: an editor that remounts swaps its listener in
  // the same commit, so no key reaches the unmounted editor's handlers in between.
  useLayoutEffect(() => {
    if (!enabled) return;
    const node: HTMLElement | Window | null = target ? target.current : window;
    if (!node) return;
    const onKey = (e: Event) => run(e as KeyboardEvent);
    node.addEventListener("keydown", onKey, { capture });
    return () => node.removeEventListener("keydown", onKey, { capture });
  }, [target, enabled, capture]);
}
