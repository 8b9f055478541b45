import { describe, expect, it } from "vitest";
import { createLifecycle } from "../lifecycle";

describe("env server lifecycle", () => {
  it("drains at once when nothing is in flight, and waits for what is", async () => {
    const idle = createLifecycle();
    expect(await idle.drain(1_000)).toBe(true);
    expect(idle.draining()).toBe(true);

    const busy = createLifecycle();
    let finish: () => void = () => {};
    const call = busy.track(() => new Promise<string>((resolve) => (finish = () => resolve("answered"))));
    expect(busy.inFlight()).toBe(1);
    let drained: boolean | null = null;
    const drain = busy.drain(60_000).then((d) => (drained = d));
    await new Promise((r) => setTimeout(r, 20));
    expect(drained).toBeNull();
    finish();
    expect(await call).toBe("answered");
    await drain;
    expect(drained).toBe(true);
    expect(busy.inFlight()).toBe(0);
  });

  it("gives up after the drain time with a call still in flight, and counts failed calls out", async () => {
    const lifecycle = createLifecycle();
    void lifecycle.track(() => new Promise(() => undefined));
    await expect(lifecycle.track(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(lifecycle.inFlight()).toBe(1);
    expect(await lifecycle.drain(30)).toBe(false);
  });
});
