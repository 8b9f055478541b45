import { type Result, err, ok } from "../core/result";
import { formatZodIssues } from "../core/zod-issues";
import { type Episode, createEpisode } from "./episode";
import type { SandboxOptions } from "./options";
import { parseReply } from "./replies";
import { invalidRequest, replyError } from "./runner-errors";
import { type RunnerLeases, workerKey } from "./runner-leases";
import {
  type CheckResult,
  LoadInputSchema,
  LoadReplySchema,
  type RunChecksInput,
  type SandboxError,
  type Tool,
} from "./sandbox.schema";

export type LoadRequest = {
  source: string;
  className: string;
  initialState: Record<string, unknown>;
  tools?: string[];
  /** The episode's random seed (default 0): its own `random` draws, reproduced by a replay. */
  seed?: number;
};

/** Sources whose tool schemas the runner keeps (a few MB at most for large classes). */
const KNOWN_TOOLS_ENTRIES = 32;

type RunChecks = (
  request: RunChecksInput,
  use: "checks" | "shared-checks",
) => Promise<Result<CheckResult[], SandboxError>>;

/** Leases a worker for the source and instantiates the environment for one episode. */
export function createEpisodeLoader(leases: RunnerLeases, options: SandboxOptions, runChecks: RunChecks) {
  /** Tool schemas per (source, class): a pure function of the source, so a warm load need not
   * carry them back (55 KB for a 150 KB class). Kept only when no tool was hidden (see load). */
  const knownTools = new Map<string, Tool[]>();

  function remember(key: string, tools: Tool[]) {
    knownTools.delete(key);
    knownTools.set(key, tools);
    if (knownTools.size > KNOWN_TOOLS_ENTRIES) knownTools.delete(knownTools.keys().next().value as string);
  }

  return async function load(request: LoadRequest): Promise<Result<Episode, SandboxError>> {
    const input = LoadInputSchema.safeParse(request);
    if (!input.success) return err(invalidRequest(formatZodIssues(input.error, { root: "request" })));
    const { source, className, initialState, tools: only, seed } = input.data;
    const sourceKey = workerKey("env", source);
    const toolsKey = `${sourceKey}\u0000${className}`;
    const known = knownTools.get(toolsKey);
    // Workers are reused only for the same source: different untrusted code never shares a realm.
    const lease = await leases.durable(sourceKey, "shared");
    if (!lease.ok) return lease;
    const reply = parseReply(
      await lease.value.call(
        {
          op: "load",
          source,
          source_key: sourceKey,
          class_name: className,
          initial_state: initialState,
          ...(known ? { schemas: false } : {}),
          ...(seed === undefined ? {} : { seed }),
        },
        options.loadTimeoutMs,
      ),
      LoadReplySchema,
    );
    const all = reply.ok ? (reply.value.tools ?? known) : undefined;
    if (!reply.ok || !all) {
      await lease.value.release(true);
      if (!reply.ok) return err(replyError(reply.error));
      return err({
        code: "SANDBOX_UNAVAILABLE",
        message: "the sandbox sent no tools for the loaded environment",
        retryable: false,
      });
    }
    const { hidden } = reply.value;
    // An instance that shadows a tool (a state key named like a method) got a partial list: only
    // a complete one stands for every instance of the source.
    if (reply.value.tools && hidden.length === 0) remember(toolsKey, reply.value.tools);
    const tools = all.filter(
      (t) => !hidden.includes(t.function.name) && (!only || only.includes(t.function.name)),
    );
    // Where sessions share workers (`envstudio serve`), their checks do too: many episodes of a
    // scenario submit at once, and one worker per check set takes their calls back to back.
    return ok(
      createEpisode(lease.value, tools, options, (r) =>
        runChecks(r, leases.areChecksShared ? "shared-checks" : "checks"),
      ),
    );
  };
}
