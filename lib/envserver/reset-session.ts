/**
 * A reset: pick the scenario, take a sandbox worker, load the environment for one episode and answer
 * with the task and the tools. A reset to a live session's id closes it first (its owner only).
 */
import { randomInt, randomUUID } from "node:crypto";
import { type Result, err, ok } from "../core/result";
import type { SandboxRunner } from "../sandbox";
import { type Catalog, type ServedScenario, pickScenario } from "./catalog";
import { type ResetBody, type StepReply, observedTools } from "./envserver.schema";
import { hashSessionKey } from "./episode-journal";
import type { Owner, ServeError, SessionTable } from "./session-table";

export const JOURNAL_DOWN =
  "the episode journal (the database) cannot be reached: nothing was started, try again";

export async function resetSession(
  table: SessionTable,
  catalog: Catalog,
  sandbox: SandboxRunner,
  body: ResetBody,
  owner: Owner,
): Promise<Result<{ id: string; reply: StepReply; scenario: ServedScenario }, ServeError>> {
  const scenario = pickScenario(catalog, {
    scenarioId: body.scenario_id,
    seed: body.seed,
    split: body.split,
    index: body.index,
  });
  if (!scenario) {
    const named = body.split === undefined ? (body.scenario_id ?? "") : `${body.split}[${body.index}]`;
    return err({
      code: "NOT_FOUND",
      message: `no scenario ${named} in dataset ${catalog.name}`.replace("  ", " "),
    });
  }
  if (!owner.key)
    return err({ code: "INVALID", message: "a session needs a non-empty owner key (session_key)" });
  const id = body.episode_id ?? randomUUID();
  if (table.has(id)) {
    const mine = table.owned(id, owner.key);
    if (!mine.ok) return mine;
    await table.close(id, owner.key);
  }
  const reserved = table.reserveWorker();
  if (!reserved.ok) return reserved;
  // The episode's own random seed: the client's, or one drawn here and reported, so that the
  // episode can be reproduced (and a replay after a worker's death reproduces it).
  const seed = body.seed ?? randomInt(2 ** 31);
  const loaded = await sandbox.load({
    source: scenario.source,
    className: scenario.className,
    initialState: scenario.initialState,
    seed,
  });
  if (!loaded.ok) {
    table.releaseWorker();
    return err({ code: "SANDBOX", message: `${loaded.error.code}: ${loaded.error.message}` });
  }
  table.add({
    id,
    owner,
    scenario,
    episode: loaded.value,
    diffs: body.diff === true,
    stepCount: 0,
    submitted: false,
    lastSeen: table.now(),
    done: false,
    reward: null,
    finalSnapshot: null,
    recorded: 0,
    journalChain: Promise.resolve(),
  });
  const journal = table.opts.journal;
  if (journal) {
    // Recorded before the client hears of it: an episode another replica could not rebuild is
    // not started.
    const begun = await journal
      .begin({
        id,
        keyHash: hashSessionKey(owner.key),
        catalog: catalog.name,
        scenarioId: scenario.id,
        seed,
        diffs: body.diff === true,
      })
      .catch((e: Error) => (console.error(`[serve] journal begin ${id}:`, e.message), null));
    if (begun !== true) {
      await table.close(id, undefined, false);
      return err(
        begun === null
          ? { code: "CAPACITY", message: JOURNAL_DOWN }
          : { code: "FORBIDDEN", message: `episode ${id} belongs to another client` },
      );
    }
  }
  return ok({
    id,
    scenario,
    reply: {
      observation: {
        content: scenario.task,
        tools: observedTools(scenario),
        metadata: { episode_id: id, scenario_id: scenario.id, env_id: scenario.envId, seed },
      },
      reward: null,
      done: false,
    },
  });
}
