/** Statistics of one dataset version and the changelog between two versions (pure). */
import type { DatasetChangelog, DatasetStats } from "./dataset.schema";
import type { SplitName } from "./split";

export type StatsItem = {
  /** Human key of the scenario (environment slug / external id), used in changelogs. */
  key: string;
  environment: string;
  domain: string;
  split: SplitName;
  task: string;
  checkCount: number;
  toolCount: number;
  /** environmentVersionId + validator version ids: a change means the item was re-pinned. */
  pin: string;
};

const words = (text: string) => text.trim().split(/\s+/).filter(Boolean).length;
const round = (n: number) => Math.round(n * 100) / 100;

export function computeStats(items: StatsItem[]): DatasetStats {
  const envs = new Map<string, { split: SplitName; scenarios: number; tools: number; domain: string }>();
  for (const item of items) {
    const env = envs.get(item.environment) ?? {
      split: item.split,
      scenarios: 0,
      tools: item.toolCount,
      domain: item.domain,
    };
    env.scenarios += 1;
    envs.set(item.environment, env);
  }
  const side = (split: SplitName) => ({
    scenarios: items.filter((i) => i.split === split).length,
    environments: [...envs.values()].filter((e) => e.split === split).length,
  });
  const wordCounts = items.map((i) => words(i.task));
  const checks = items.reduce((s, i) => s + i.checkCount, 0);
  const tools = [...envs.values()].reduce((s, e) => s + e.tools, 0);
  const byDomain: Record<string, number> = {};
  for (const item of items) byDomain[item.domain] = (byDomain[item.domain] ?? 0) + 1;
  return {
    scenarios: items.length,
    environments: envs.size,
    train: side("TRAIN"),
    test: side("TEST"),
    checks: { total: checks, meanPerScenario: items.length ? round(checks / items.length) : 0 },
    taskWords: {
      mean: wordCounts.length ? round(wordCounts.reduce((a, b) => a + b, 0) / wordCounts.length) : 0,
      min: wordCounts.length ? Math.min(...wordCounts) : 0,
      max: wordCounts.length ? Math.max(...wordCounts) : 0,
    },
    tools: { total: tools, meanPerEnvironment: envs.size ? round(tools / envs.size) : 0 },
    byEnvironment: [...envs.entries()]
      .map(([environment, e]) => ({ environment, split: e.split, scenarios: e.scenarios }))
      .sort((a, b) => a.environment.localeCompare(b.environment)),
    byDomain,
  };
}

export function computeChangelog(
  previous: { version: number; seed: number; items: StatsItem[] } | null,
  current: { seed: number; items: StatsItem[] },
): DatasetChangelog {
  const before = new Map((previous?.items ?? []).map((i) => [i.key, i]));
  const after = new Map(current.items.map((i) => [i.key, i]));
  const sideOf = (items: StatsItem[]) => new Map(items.map((i) => [i.environment, i.split]));
  const beforeSides = sideOf(previous?.items ?? []);
  const movedEnvironments = [...sideOf(current.items).entries()]
    .filter(([env, split]) => beforeSides.has(env) && beforeSides.get(env) !== split)
    .map(([environment, to]) => ({ environment, from: beforeSides.get(environment) as SplitName, to }));
  return {
    previousVersion: previous?.version ?? null,
    added: [...after.keys()].filter((k) => !before.has(k)).sort(),
    removed: [...before.keys()].filter((k) => !after.has(k)).sort(),
    repinned: [...after.entries()]
      .filter(([k, i]) => before.has(k) && before.get(k)?.pin !== i.pin)
      .map(([k]) => k)
      .sort(),
    movedEnvironments: movedEnvironments.sort((a, b) => a.environment.localeCompare(b.environment)),
    seedChanged: previous !== null && previous.seed !== current.seed,
  };
}
