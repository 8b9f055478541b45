/**
 * A small concurrency limiter for a run's subjects: at most `limit` items in flight, and no new
 * item taken once `stop()` says so (a cancelled run, an exhausted budget).
 */
export async function forEachLimited<T>(
  items: T[],
  limit: number,
  fn: (item: T, index: number) => Promise<void>,
  stop: () => Promise<boolean> = () => Promise.resolve(false),
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      if (await stop()) return;
      // Another lane may have taken the last item while this one awaited stop().
      if (next >= items.length) return;
      const index = next++;
      await fn(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
}
