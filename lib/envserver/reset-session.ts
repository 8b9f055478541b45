/**
 * A reset: pick the scenario, take a sandbox worker, load the environment for one episode and answer
 * with the task and the tools. A reset to a live session's id closes it first (its owner only).
 */
import { randomInt, randomUUID } from "node:crypto";
import { type Result, err, ok } from "../core/result";
import type { SandboxRunner } from "../sandbox";
import { type Catalog, pickScenario } from "./catalog";
import { type ResetBody, SUBMIT_SCHEMA, type StepReply } from "./envserver.schema";
import type { Owner, ServeError, SessionTable } from "./session-table";

export async function resetSession(
  table: SessionTable,
  catalog: Catalog,
  sandbox: SandboxRunner,
  body: ResetBody,
  owner: Owner,
): Promise<Result<{ id: string; reply: StepReply }, ServeError>> {
  const scenario = pickScenario(catalog, { scenarioId: body.scenario_id, seed: body.seed });
  if (!scenario)
    return err({
      code: "NOT_FOUND",
      message: `no scenario ${body.scenario_id ?? ""} in dataset ${catalog.name}`.replace("  ", " "),
    });
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
  });
  return ok({
    id,
    reply: {
      observation: {
        content: scenario.task,
        tools: [...scenario.tools, SUBMIT_SCHEMA],
        metadata: { episode_id: id, scenario_id: scenario.id, env_id: scenario.envId, seed },
      },
      reward: null,
      done: false,
    },
  });
}
