import { z } from "zod";
import { ToolSchema } from "../environments/environment.schema";

export const VerdictSchema = z.enum(["PASS", "WARNING", "FAIL"]);

export const ReviewProbeInputSchema = z.object({
  probeId: z.string().min(1),
  /** The reviewer's verdict; equal to the judge's = confirm, different = override. */
  verdict: VerdictSchema,
});
export type ReviewProbeInput = z.infer<typeof ReviewProbeInputSchema>;

/** Bulk "confirm the judge": the probes a reviewer had in view (a quality check has ~30). */
export const ConfirmJudgeInputSchema = z.object({
  probeIds: z.array(z.string().min(1).max(100)).min(1).max(500),
});
export type ConfirmJudgeInput = z.infer<typeof ConfirmJudgeInputSchema>;

export const REVIEW_KINDS = ["environment", "scenario", "trajectory", "repair"] as const;
export const ReviewKindSchema = z.enum(REVIEW_KINDS);
export type ReviewKind = z.infer<typeof ReviewKindSchema>;

const decisionFields = {
  id: z.string().min(1),
  decision: z.enum(["ACCEPT", "REJECT"]),
  reason: z.string().trim().max(2000).default(""),
};
const versionId = z.string().min(1).max(100);

/**
 * A decision names what the reviewer saw, and is refused (CONFLICT) when the item moved since:
 * for an environment its code version; for a scenario the environment version its proof was shown
 * for and its validator versions in checklist order. Trajectories and repair proposals are
 * immutable (a proposal names the versions it was made against itself).
 */
export const DecideItemInputSchema = z
  .discriminatedUnion("kind", [
    z.object({ kind: z.literal("environment"), ...decisionFields, versionId }),
    z.object({
      kind: z.literal("scenario"),
      ...decisionFields,
      environmentVersionId: versionId,
      validatorVersionIds: z.array(versionId).max(500),
    }),
    z.object({ kind: z.literal("trajectory"), ...decisionFields }),
    z.object({ kind: z.literal("repair"), ...decisionFields }),
  ])
  .refine((d) => d.decision !== "REJECT" || d.reason.length > 0, {
    message: "a rejection needs a reason",
    path: ["reason"],
  });
export type DecideItemInput = z.infer<typeof DecideItemInputSchema>;
/** The versions a decision names, as the queue and the pages send them. */
export type SeenVersions =
  | { kind: "environment"; versionId: string }
  | { kind: "scenario"; environmentVersionId: string; validatorVersionIds: string[] }
  | { kind: "trajectory" }
  | { kind: "repair" };

export const ClaimInputSchema = z.object({ kind: ReviewKindSchema, id: z.string().min(1) });
export type ClaimInput = z.infer<typeof ClaimInputSchema>;

/** POST /api/review/claims: the item is the caller's until expiresAt, or another reviewer holds it. */
export const ClaimReplySchema = z.discriminatedUnion("claimed", [
  z.object({ claimed: z.literal(true), expiresAt: z.string() }),
  z.object({ claimed: z.literal(false), heldBy: z.string() }),
]);
export type ClaimReply = z.infer<typeof ClaimReplySchema>;
export const ReleaseReplySchema = z.object({ released: z.number() });

/** POST /api/review/decisions: the decision as logged. */
export const DecisionReplySchema = z.object({
  decisionId: z.string(),
  kind: ReviewKindSchema,
  id: z.string(),
  decision: z.enum(["ACCEPT", "REJECT"]),
  /** An accepted repair: the proof run of its new versions (and why it could not be queued). */
  proofRunId: z.string().nullable().optional(),
  warning: z.string().optional(),
});
/** POST /api/review/undo: the UNDO entry, the decision it undid and the item now back in the queue. */
export const UndoReplySchema = z.object({
  decisionId: z.string(),
  undone: z.object({ id: z.string(), decision: z.string() }),
  kind: ReviewKindSchema,
  id: z.string(),
});

const ProofViewSchema = z.object({ status: z.string(), reasons: z.array(z.string()) });

/**
 * GET /api/review/preview: the queue's preview pane for one item. For a repair proposal `diff` is
 * current → proposed code and `comparison` the proofs of both, run with the same gold (for an
 * environment-code repair: the failed quality probes, and those probes re-run and re-judged on the
 * proposed code with the sibling scenarios re-proven). `description`, `tools` and
 * `code` say what the item is, so a reviewer can judge an item that has no earlier version to diff
 * against (a fresh environment: its description, tool schemas and source; a scenario: its task and checks).
 */
export const QueuePreviewSchema = z.object({
  proof: ProofViewSchema.nullable(),
  quality: z.string().nullable(),
  diff: z.object({ label: z.string(), original: z.string(), modified: z.string() }).nullable(),
  comparison: z
    .object({
      /** What the two sides are (default: the current and the proposed checks). */
      labels: z.object({ before: z.string(), after: z.string() }).optional(),
      before: ProofViewSchema,
      after: ProofViewSchema.nullable(),
    })
    .nullable()
    .default(null),
  description: z.string().nullable(),
  tools: z.array(ToolSchema),
  code: z.object({ label: z.string(), source: z.string() }).nullable(),
});
export type QueuePreview = z.infer<typeof QueuePreviewSchema>;

export const QueueFilterSchema = z.object({
  /** Search: environment names and env_ids, scenario tasks and ids (repairs are not searched). */
  q: z.string().trim().max(200).optional(),
  kind: ReviewKindSchema.optional(),
  status: z.string().max(40).optional(),
  domain: z.string().max(100).optional(),
  flagReason: z.string().max(200).optional(),
  runId: z.string().max(100).optional(),
});
export type QueueFilter = z.infer<typeof QueueFilterSchema>;

/**
 * Claim lifetime: short, because an open queue page renews its claim every CLAIM_HEARTBEAT_MS and
 * a closed one releases it by beacon; a crashed browser frees the item within this time.
 */
export const CLAIM_TTL_MS = 2 * 60 * 1000;
export const CLAIM_HEARTBEAT_MS = 30 * 1000;

export const TARGET_OF: Record<
  ReviewKind,
  "ENVIRONMENT_VERSION" | "SCENARIO" | "TRAJECTORY" | "REPAIR_PROPOSAL"
> = {
  environment: "ENVIRONMENT_VERSION",
  scenario: "SCENARIO",
  trajectory: "TRAJECTORY",
  repair: "REPAIR_PROPOSAL",
};

export type AuditEntry = {
  id: string;
  actor: string;
  targetType: string;
  targetId: string;
  decision: string;
  reason: string;
  before: unknown;
  after: unknown;
  createdAt: string;
};

export type QueueItem = {
  kind: ReviewKind;
  id: string;
  title: string;
  detail: string;
  status: string;
  domain: string;
  reasons: string[];
  runId: string | null;
  environmentId: string;
  /** What the reviewer sees, sent back with the decision (refused if the item moved since). */
  seen: SeenVersions;
  href: string;
  editHref: string;
  /** Why accepting needs a written override reason (failed/pending proof, failing quality). */
  risks: string[];
  /** Accepted once, edited since: what changed and where to read the diff. */
  changed: { text: string; href: string } | null;
};
