import "server-only";
/**
 * One batch of dataset items → ExportScenarios, with their pinned validators and SFT trajectories.
 * Everything an item exports comes from rows that never change: the scenario's task and initial
 * state (written once), and the pinned validator versions' code and checklist text — so a dataset
 * version exports the same bytes however its checks are edited later.
 */
import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";
import { ScenarioDifficultySchema } from "@/lib/difficulty/estimators";
import { idList } from "@/lib/review/acceptance";
import { readTrajectoryMessages } from "@/lib/rollout";
import { type ExportDifficulty, toExportDifficulty } from "../difficulty";
import type { ExportScenario, ExportTrajectory } from "../export.schema";
import { sftTrajectoryWhere } from "./sft-trajectory-rule";

type Item = {
  split: "TRAIN" | "TEST";
  /** The figures the version froze (null on versions made before difficulty existed). */
  difficulty?: unknown;
  validatorVersionIds: unknown;
  environmentVersionId: string;
  nearMissStrength: unknown;
  scenario: {
    id: string;
    externalId: string;
    task: string;
    initialState: unknown;
    goldCalls: unknown;
  };
};

const ids = (value: unknown) => idList(value) ?? [];

/** `envId`: one env_id for every item, or env_id by environment version id (a batch of several). */
export async function toExportScenarios(
  db: Db,
  envId: string | ReadonlyMap<string, string>,
  items: Item[],
  withTrajectories: boolean,
): Promise<ExportScenario[]> {
  const versions = await db.validatorVersion.findMany({
    where: { id: { in: items.flatMap((i) => ids(i.validatorVersionIds)) } },
    select: { id: true, version: true, code: true, checkItem: true },
  });
  const byId = new Map(versions.map((v) => [v.id, v]));
  const trajectories = withTrajectories
    ? await loadSftTrajectories(db, items)
    : new Map<string, ExportTrajectory[]>();
  return items.map((item) => {
    const checks = ids(item.validatorVersionIds).flatMap((id) => {
      const v = byId.get(id);
      return v ? [{ checkItem: v.checkItem, code: v.code, validatorVersion: v.version }] : [];
    });
    return {
      envId: typeof envId === "string" ? envId : (envId.get(item.environmentVersionId) ?? ""),
      taskId: item.scenario.externalId,
      split: item.split,
      task: item.scenario.task,
      initialState: (item.scenario.initialState ?? {}) as Record<string, unknown>,
      checklist: checks.map((c) => c.checkItem),
      checks,
      goldCalls: item.scenario.goldCalls ?? null,
      trajectories: trajectories.get(item.scenario.id) ?? [],
      difficulty: frozenDifficulty(item),
      ...snapshotStrength(item.nearMissStrength),
    };
  });
}

function frozenDifficulty(item: Item): ExportDifficulty | null {
  if (item.difficulty === null || item.difficulty === undefined) return null;
  const parsed = ScenarioDifficultySchema.safeParse(item.difficulty);
  // A snapshot that does not parse fails the export by name rather than being dropped silently.
  if (!parsed.success)
    throw new AppError(
      "INVALID_INPUT",
      `scenario ${item.scenario.externalId}: unreadable difficulty snapshot`,
    );
  return toExportDifficulty(parsed.data);
}

const SnapshotSchema = z.object({
  strength: z
    .object({
      rejected: z.number(),
      total: z.number(),
      passed: z.array(z.object({ kind: z.string(), description: z.string(), calls: z.unknown() })),
    })
    .nullable(),
});

/** The strength the version recorded for the item; nothing for items of versions made before it was. */
function snapshotStrength(raw: unknown): Pick<ExportScenario, "nearMissStrength"> {
  if (raw === null || raw === undefined) return {};
  const parsed = SnapshotSchema.safeParse(raw);
  if (!parsed.success)
    throw new AppError("INVALID_INPUT", "a dataset item's near-miss strength is unreadable");
  return { nearMissStrength: parsed.data.strength };
}

/** Trajectories that passed the SFT filter on exactly the item's pins (sft-trajectory-rule.ts). */
async function loadSftTrajectories(db: Db, items: Item[]): Promise<Map<string, ExportTrajectory[]>> {
  const rows = await db.trajectory.findMany({
    where: sftTrajectoryWhere(
      items.map((i) => ({
        scenarioId: i.scenario.id,
        environmentVersionId: i.environmentVersionId,
        validatorVersionIds: i.validatorVersionIds,
      })),
    ),
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, scenarioId: true, model: true, mode: true, reward: true, messages: true },
  });
  const out = new Map<string, ExportTrajectory[]>();
  for (const r of rows) {
    const list = out.get(r.scenarioId) ?? [];
    // A row that cannot be read fails the export by name: skipping it would drop data silently.
    const messages = readTrajectoryMessages(r.messages);
    if (!messages.ok) throw new AppError("INVALID_INPUT", `trajectory ${r.id}: ${messages.error}`);
    list.push({ id: r.id, model: r.model, mode: r.mode, reward: r.reward, messages: messages.value.agent });
    out.set(r.scenarioId, list);
  }
  return out;
}
