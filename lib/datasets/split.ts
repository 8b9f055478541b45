/**
 * Train/test split by environment: every scenario of an environment lands on the same side, so a
 * model is never tested on an environment it was trained on. Seeded and deterministic: the same
 * environments, counts and seed always give the same split, whatever order they arrive in.
 */
export type SplitName = "TRAIN" | "TEST";

export type SplitInput = { environmentKey: string; scenarioCount: number }[];

/** mulberry32: a tiny seeded PRNG; good enough for shuffling and reproducible everywhere. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** localeCompare's order (same default locale and options), without its per-call cost. */
const byLocale = new Intl.Collator().compare;

function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  const random = seededRandom(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * Assigns environments to TEST (in seeded order) until the test side holds about `testRatio` of the
 * scenarios, the rest to TRAIN. With two or more environments and 0 < ratio < 1 both sides are
 * non-empty, since a split with an empty side is useless for evaluation.
 */
export function splitByEnvironment(
  input: SplitInput,
  seed: number,
  testRatio: number,
): Map<string, SplitName> {
  const envs = shuffled(
    [...input].sort((a, b) => byLocale(a.environmentKey, b.environmentKey)),
    seed,
  );
  const total = envs.reduce((sum, e) => sum + e.scenarioCount, 0);
  const target = total * testRatio;
  const result = new Map<string, SplitName>();
  let testCount = 0;
  for (const env of envs) {
    const wantsTest =
      testRatio > 0 &&
      testCount < target &&
      Math.abs(testCount + env.scenarioCount - target) <= Math.abs(testCount - target);
    result.set(env.environmentKey, wantsTest ? "TEST" : "TRAIN");
    if (wantsTest) testCount += env.scenarioCount;
  }
  return ensureBothSides(result, envs, testRatio);
}

function ensureBothSides(
  result: Map<string, SplitName>,
  envs: SplitInput,
  testRatio: number,
): Map<string, SplitName> {
  if (envs.length < 2 || testRatio <= 0 || testRatio >= 1) return result;
  const sides = new Set(result.values());
  if (sides.size === 2) return result;
  // Move the smallest environment to the missing side (first in seeded order on ties).
  const smallest = [...envs].sort((a, b) => a.scenarioCount - b.scenarioCount)[0];
  if (smallest) result.set(smallest.environmentKey, sides.has("TEST") ? "TRAIN" : "TEST");
  return result;
}
