/**
 * The dataset page's row browser: one page of a dataset version's items (searched, paged on the
 * server) and one item as the export writes it. Both ends parse these shapes (lib/api/routes.ts).
 */
import { z } from "zod";
import { pageSchemaOf } from "../core/page.schema";

/** The most rows one page may ask for: a page is for reading, the CLI export is for everything. */
export const MAX_ROWS_PAGE_SIZE = 100;
export const DEFAULT_ROWS_PAGE_SIZE = 25;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((v) => (v ? v : undefined));

export const VersionRowsQuerySchema = z.object({
  /** Matched, case-insensitively, against the task text, the task id and the environment's slug and name. */
  q: optionalText(200),
  split: z.enum(["TRAIN", "TEST"]).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_ROWS_PAGE_SIZE).default(DEFAULT_ROWS_PAGE_SIZE),
});
export type VersionRowsQuery = z.infer<typeof VersionRowsQuerySchema>;

/** The route's input: the version's id from the path and the query string. */
export const VersionRowsInputSchema = VersionRowsQuerySchema.extend({ id: z.string().min(1).max(64) });

/** The query string of a page of rows, defaults left out (`q=refund&page=2`). */
export function versionRowsSearch(q: Partial<VersionRowsQuery>): string {
  const p = new URLSearchParams();
  if (q.q) p.set("q", q.q);
  if (q.split) p.set("split", q.split);
  if (q.page && q.page > 1) p.set("page", String(q.page));
  if (q.pageSize && q.pageSize !== DEFAULT_ROWS_PAGE_SIZE) p.set("pageSize", String(q.pageSize));
  return p.toString();
}

export const PROOF_STATUSES = ["PENDING", "VERIFIED", "FAILED", "STALE"] as const;

/** One item of a version as the browser lists it. */
export const VersionRowSchema = z.object({
  scenarioId: z.string(),
  /** The id the exports give the environment (`slug`, or `slug@vN` for an older pinned version). */
  envId: z.string(),
  environmentName: z.string(),
  taskId: z.string(),
  /** The task's first characters (the whole task is in the row's detail). */
  taskExcerpt: z.string(),
  split: z.enum(["TRAIN", "TEST"]),
  environmentVersion: z.number(),
  validatorVersions: z.array(z.number()),
  /** Entered without accepted, proven pins, by a logged override. */
  overridden: z.boolean(),
  /** The scenario's proof status now (the pins themselves never change). */
  proofStatus: z.enum(PROOF_STATUSES),
  /** The difficulty the version froze for the item; null when it froze none. */
  difficulty: z
    .object({
      n: z.number(),
      successRate: z.number().nullable(),
      pSignal: z.number().nullable(),
    })
    .nullable(),
  /** Near-misses of the gold calls the checks rejected; null when the version recorded none. */
  nearMiss: z.object({ rejected: z.number(), total: z.number() }).nullable(),
});
export type VersionRow = z.infer<typeof VersionRowSchema>;

/** `total`: the rows matching the search (the whole version without one). */
export const VersionRowsPageSchema = pageSchemaOf(VersionRowSchema);
export type VersionRowsPage = z.infer<typeof VersionRowsPageSchema>;

export const VersionRowDetailInputSchema = z.object({
  id: z.string().min(1).max(64),
  scenarioId: z.string().min(1).max(64),
});

/** One item with the scenario record the EnvScaler export writes for it (task, init_config, checks, gold_calls). */
export const VersionRowDetailSchema = z.object({
  row: VersionRowSchema,
  environmentId: z.string(),
  /** The EnvScaler scenario record; the fields the panel shows are typed, the rest passes through. */
  exported: z.looseObject({
    task: z.string(),
    init_config: z.unknown(),
    checklist_with_func: z.array(z.object({ check_item: z.string(), check_func: z.string() })),
    gold_calls: z.unknown(),
  }),
});
export type VersionRowDetail = z.infer<typeof VersionRowDetailSchema>;

export const TASK_EXCERPT_LENGTH = 160;

/** The first TASK_EXCERPT_LENGTH characters of a task, whitespace collapsed, cut at a word when one is near. */
export function taskExcerpt(task: string): string {
  const flat = task.replace(/\s+/g, " ").trim();
  if (flat.length <= TASK_EXCERPT_LENGTH) return flat;
  const cut = flat.slice(0, TASK_EXCERPT_LENGTH);
  const space = cut.lastIndexOf(" ");
  return `${space > TASK_EXCERPT_LENGTH * 0.6 ? cut.slice(0, space) : cut}…`;
}
