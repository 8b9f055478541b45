/**
 * Every request into and reply out of the sandbox, as zod schemas. Replies come from untrusted
 * code's process, so they are parsed, never cast.
 */
import { z } from "zod";

export const SandboxErrorCodeSchema = z.enum([
  "TIMEOUT",
  "MEMORY",
  "OUTPUT_TOO_LARGE",
  "USER_CODE_ERROR",
  "SANDBOX_UNAVAILABLE",
  "INVALID_REQUEST",
]);
export type SandboxErrorCode = z.infer<typeof SandboxErrorCodeSchema>;

export const SandboxErrorSchema = z.object({
  code: SandboxErrorCodeSchema,
  message: z.string(),
  retryable: z.boolean(),
});
export type SandboxError = z.infer<typeof SandboxErrorSchema>;

/** A path into the state: dict keys are strings, list indices are numbers. */
export const StatePathSchema = z.array(z.union([z.string(), z.number().int()]));
export type StatePath = z.infer<typeof StatePathSchema>;

export const StateDiffSchema = z.object({
  added: z.array(z.object({ path: StatePathSchema, value: z.unknown() })),
  removed: z.array(z.object({ path: StatePathSchema, value: z.unknown() })),
  changed: z.array(z.object({ path: StatePathSchema, old: z.unknown(), new: z.unknown() })),
});
export type StateDiff = z.infer<typeof StateDiffSchema>;

export const JsonObjectSchema = z.record(z.string(), z.unknown());
export type JsonObject = z.infer<typeof JsonObjectSchema>;

export const ToolSchema = z.object({
  type: z.literal("function"),
  function: z.object({
    name: z.string(),
    description: z.string(),
    parameters: z.object({
      type: z.literal("object"),
      properties: JsonObjectSchema,
      required: z.array(z.string()),
      additionalProperties: z.boolean().optional(),
    }),
  }),
});
export type Tool = z.infer<typeof ToolSchema>;

export const CheckResultSchema = z.union([
  z.object({ passed: z.boolean() }).strict(),
  z.object({ error: z.string() }).strict(),
]);
export type CheckResult = z.infer<typeof CheckResultSchema>;

// ---- caller input (validated at the public entry) ----

export const LoadInputSchema = z.object({
  source: z.string().min(1, "source is empty"),
  className: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "className must be a Python identifier"),
  initialState: JsonObjectSchema,
  /** Restricts the episode to these tool names (all public methods when omitted). */
  tools: z.array(z.string()).optional(),
  /** Seeds the episode's own random generator (Python's `random` module functions); replays reuse it. */
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 53 - 1)
    .optional(),
});
export type LoadInput = z.infer<typeof LoadInputSchema>;

export const StepInputSchema = z.object({ name: z.string().min(1), args: JsonObjectSchema });
export const ChecksInputSchema = z.array(z.string());

export const AnalyzeInputSchema = z.object({ source: z.string(), className: z.string() });
export type AnalyzeInput = z.infer<typeof AnalyzeInputSchema>;

export const RunChecksInputSchema = z.object({
  checks: ChecksInputSchema,
  initialState: z.unknown(),
  finalState: z.unknown(),
});
export type RunChecksInput = z.infer<typeof RunChecksInputSchema>;

/** The same checks over many (initial, final) state pairs: a validator over a corpus's scenarios. */
export const RunChecksBatchInputSchema = z.object({
  checks: ChecksInputSchema,
  cases: z.array(z.object({ initialState: z.unknown(), finalState: z.unknown() })).min(1),
});
export type RunChecksBatchInput = z.infer<typeof RunChecksBatchInputSchema>;

/** One line of `envstudio env replay --episodes file.jsonl`. */
export const ReplayEpisodeSchema = z.object({
  id: z.union([z.string(), z.number()]),
  source: z.string(),
  class_name: z.string(),
  init: JsonObjectSchema.default({}),
  calls: z.array(z.object({ name: z.string(), arguments: JsonObjectSchema.default({}) })).default([]),
  checks: z.array(z.string()).optional(),
});
export type ReplayEpisode = z.infer<typeof ReplayEpisodeSchema>;

// ---- harness requests (python/harness.py); `timeout_ms` is added by python3 leases ----

const Checks = z.array(z.string());
export const HarnessRequestSchema = z.discriminatedUnion("op", [
  z.object({
    op: z.literal("load"),
    /** Left out when the worker may hold it already (source-on-demand.ts); then `source_key` names it. */
    source: z.string().optional(),
    source_key: z.string().optional(),
    class_name: z.string(),
    initial_state: JsonObjectSchema,
    /** false: the runner holds this source's tool schemas, so the reply names only hidden tools. */
    schemas: z.boolean().optional(),
    seed: z.number().int().optional(),
  }),
  z.object({ op: z.literal("tools") }),
  z.object({ op: z.literal("step"), name: z.string(), arguments: JsonObjectSchema }),
  z.object({ op: z.literal("state") }),
  z.object({ op: z.literal("diff") }),
  z.object({ op: z.literal("states") }),
  z.object({
    op: z.literal("run_checks"),
    checks: Checks,
    initial_state: z.unknown(),
    final_state: z.unknown(),
  }),
  z.object({
    op: z.literal("run_checks_batch"),
    checks: Checks,
    cases: z.array(z.object({ initial_state: z.unknown(), final_state: z.unknown() })),
  }),
  z.object({ op: z.literal("analyze"), source: z.string(), class_name: z.string() }),
  z.object({
    op: z.literal("splice"),
    source: z.string(),
    patch: z.string(),
    class_name: z.string().nullable(),
    allowed: z.array(z.string()).nullable(),
  }),
  z.object({
    op: z.literal("configure"),
    max_output_bytes: z.number().int(),
    max_log_bytes: z.number().int(),
  }),
  z.object({ op: z.literal("ping") }),
  z.object({ op: z.literal("unload") }),
]);
/** `episode` names the instance a call is for when a worker hosts several (shared-workers.ts). */
export type HarnessRequest = z.infer<typeof HarnessRequestSchema> & { episode?: string };

// ---- harness replies (python/harness.py) ----

export const HarnessErrorReplySchema = z.object({
  ok: z.literal(false),
  error: z.object({ code: SandboxErrorCodeSchema, message: z.string() }),
});

/** `tools`: the instance's callable tools (absent when the request said `schemas: false`);
 * `hidden`: tools of the source that this instance shadows with a non-callable attribute. */
export const LoadReplySchema = z.object({
  ok: z.literal(true),
  tools: z.array(ToolSchema).optional(),
  hidden: z.array(z.string()).default([]),
});
/** A load that named its source by key, to a worker that does not hold it. */
export const NeedSourceReplySchema = z.object({ ok: z.literal(true), need_source: z.literal(true) });
export const StepReplySchema = z.object({
  ok: z.literal(true),
  observation: z.unknown(),
  is_error: z.boolean(),
  diff: StateDiffSchema,
  stdout: z.string(),
  stderr: z.string(),
});
/** A step asked for without its diff (`"diff": false`): the harness sends `null` in its place. */
export const ActReplySchema = StepReplySchema.extend({ diff: StateDiffSchema.nullable() });
export const StateReplySchema = z.object({ ok: z.literal(true), state: JsonObjectSchema });
export const DiffReplySchema = z.object({ ok: z.literal(true), diff: StateDiffSchema });
/** The episode's initial and current state, exact: what its checks are run over, elsewhere. */
export const StatesReplySchema = z.object({
  ok: z.literal(true),
  initial: JsonObjectSchema,
  final: JsonObjectSchema,
});
export const ChecksReplySchema = z.object({ ok: z.literal(true), results: z.array(CheckResultSchema) });
export const ChecksBatchReplySchema = z.object({
  ok: z.literal(true),
  results: z.array(z.array(CheckResultSchema)),
});
export const EmptyReplySchema = z.object({ ok: z.literal(true) });

export const SyntaxIssueSchema = z.object({
  message: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  end_line: z.number().int().optional(),
  end_column: z.number().int().optional(),
});

export const AnalyzeReplySchema = z.object({
  ok: z.literal(true),
  syntax_errors: z.array(SyntaxIssueSchema),
  class_found: z.boolean(),
  classes: z.array(z.string()),
  methods: z.array(z.string()),
  forbidden_imports: z.array(z.object({ module: z.string(), line: z.number().int() })),
  has_async: z.boolean(),
  tools: z.array(ToolSchema),
});

export const SpliceReplySchema = z.object({
  ok: z.literal(true),
  source: z.string().nullable(),
  replaced: z.array(z.string()),
  refusal: z.string().nullable(),
});

/** A repair patch's definitions put in place of the source's (python/splice.py, never executed). */
export const SpliceInputSchema = z.object({
  source: z.string(),
  patch: z.string(),
  /** The class whose methods the patch replaces; null: top-level functions (a check function). */
  className: z.string().nullable(),
  /** The names the patch was asked to change; null: any definition the source has. */
  allowed: z.array(z.string()).nullable(),
});
export type SpliceInput = z.infer<typeof SpliceInputSchema>;
/** The patched source and the definitions it replaced, or why the patch was refused. */
export type Splice = { ok: true; source: string; replaced: string[] } | { ok: false; refusal: string };

/** What `analyze` returns to callers (camelCase, for editor markers). */
export type Analysis = {
  syntaxErrors: { message: string; line: number; column: number; endLine?: number; endColumn?: number }[];
  classFound: boolean;
  classes: string[];
  publicMethods: string[];
  forbiddenImports: { module: string; line: number }[];
  hasAsync: boolean;
  tools: Tool[];
};

// ---- server <-> sandbox host (host/sandbox-host.mjs) ----

export const HostRequestSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("lease"),
    key: z.string().nullable(),
    waitMs: z.number().int().positive(),
    /** A check run: the pool keeps a worker for these beyond its size (host/pool.mjs). */
    checks: z.boolean().optional(),
  }),
  z.object({
    type: z.literal("release"),
    lease: z.number().int(),
    recycle: z.boolean(),
    weight: z.number().positive(),
  }),
  z.object({ type: z.literal("stats") }),
  // The snapshot's file was checked and may be booted from if its bytes have this digest.
  z.object({ type: z.literal("snapshot"), sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
]);
export type HostRequest = z.infer<typeof HostRequestSchema>;

export const HostErrorSchema = SandboxErrorSchema.extend({ retryable: z.boolean().default(false) });

export const HostMessageSchema = z.union([
  z.object({ type: z.literal("ready") }),
  z.object({ type: z.literal("lost"), lease: z.number().int() }),
  z.object({
    id: z.number(),
    ok: z.literal(true),
    lease: z.number().int().optional(),
    slot: z.number().int().min(0).optional(),
    stats: z.unknown().optional(),
  }),
  z.object({
    id: z.number(),
    ok: z.literal(false),
    error: HostErrorSchema,
    terminated: z.boolean().optional(),
  }),
]);
export type HostMessage = z.infer<typeof HostMessageSchema>;

/** What the host writes on a slot channel when it answers a call itself (kill, crash). */
export const HostFailureLineSchema = z.object({
  host_error: HostErrorSchema,
  terminated: z.boolean().default(true),
});

export const HostStatsSchema = z.object({
  workers: z.number(),
  idle: z.number(),
  leased: z.number(),
  booting: z.number(),
  queued: z.number(),
  readyMs: z.array(z.number()),
  rss: z.number(),
  snapshot: z.boolean(),
});
export type HostStats = z.infer<typeof HostStatsSchema>;
