/**
 * One child AbortSignal per in-flight call, linked to a long-lived parent (the worker's shutdown
 * signal). The OpenAI SDK adds an `abort` listener to whatever signal it is given and never removes
 * it, so handing it the worker's signal leaked one listener per request (MaxListenersExceededWarning
 * under concurrency). The parent gets ONE listener per parent, fanning out to the calls in flight;
 * each call's entry is removed when it settles, and the SDK's listener dies with the child signal.
 */
const inFlight = new WeakMap<AbortSignal, Set<AbortController>>();

export type LinkedSignal = { signal: AbortSignal | undefined; release: () => void };

export function linkSignal(parent: AbortSignal | undefined): LinkedSignal {
  if (!parent) return { signal: undefined, release: () => {} };
  const child = new AbortController();
  if (parent.aborted) {
    child.abort(parent.reason);
    return { signal: child.signal, release: () => {} };
  }
  let calls = inFlight.get(parent);
  if (!calls) {
    const set = new Set<AbortController>();
    calls = set;
    inFlight.set(parent, set);
    parent.addEventListener(
      "abort",
      () => {
        for (const c of set) c.abort(parent.reason);
        set.clear();
      },
      { once: true },
    );
  }
  calls.add(child);
  const set = calls;
  return { signal: child.signal, release: () => void set.delete(child) };
}

/** How many calls are linked to `parent` right now (for tests). */
export const linkedCount = (parent: AbortSignal) => inFlight.get(parent)?.size ?? 0;
