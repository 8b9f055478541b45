import { describe, expect, it } from "vitest";
import { forEachLimited } from "./for-each-limited";

describe("forEachLimited", () => {
  it("hands every item to exactly one lane even when lanes wait on stop() together", async () => {
    // Lanes that pass the length check together and then await stop() must not both take an item:
    // the last one would otherwise be handed `undefined` (seen in a rollout run as a TypeError).
    for (const [count, limit] of [
      [3, 2],
      [5, 4],
      [7, 7],
      [1, 3],
    ] as const) {
      const items = Array.from({ length: count }, (_, i) => `item-${i}`);
      const seen: unknown[] = [];
      await forEachLimited(
        items,
        limit,
        (item, index) => {
          expect(items[index]).toBe(item);
          seen.push(item);
          return Promise.resolve();
        },
        () => Promise.resolve(false),
      );
      expect(seen.sort()).toEqual([...items].sort());
    }
  });

  it("keeps at most `limit` items in flight", async () => {
    let inFlight = 0;
    let peak = 0;
    await forEachLimited(
      Array.from({ length: 10 }, (_, i) => i),
      3,
      async () => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight -= 1;
      },
    );
    expect(peak).toBe(3);
  });

  it("takes no new item once stop() says so", async () => {
    const done: number[] = [];
    await forEachLimited(
      [0, 1, 2, 3, 4],
      1,
      (n) => Promise.resolve(void done.push(n)),
      () => Promise.resolve(done.length >= 2),
    );
    expect(done).toEqual([0, 1]);
  });

  it("does nothing for no items", async () => {
    let calls = 0;
    await forEachLimited([], 4, () => Promise.resolve(void (calls += 1)));
    expect(calls).toBe(0);
  });
});
