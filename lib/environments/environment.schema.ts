import { z } from "zod";
import { pageSchemaOf } from "../core/page.schema";

export const ENVIRONMENT_STATUSES = [
  "DRAFT",
  "GENERATING",
  "CHECKING",
  "IN_REVIEW",
  "ACCEPTED",
  "REJECTED",
  "FAILED",
] as const;
export const EnvironmentStatusSchema = z.enum(ENVIRONMENT_STATUSES);
export type EnvironmentStatusValue = z.infer<typeof EnvironmentStatusSchema>;

export const MAX_PAGE_SIZE = 100;

/** Query of the environments list page and of GET /api/environments (same filters). */
export const ListEnvironmentsQuerySchema = z.object({
  q: z
    .string()
    .trim()
    .max(200)
    .optional()
    .transform((v) => (v ? v : undefined)),
  status: EnvironmentStatusSchema.optional(),
  domain: z
    .string()
    .trim()
    .max(100)
    .optional()
    .transform((v) => (v ? v : undefined)),
  /** "1": list archived environments too (hidden by default). */
  archived: z
    .enum(["0", "1"])
    .optional()
    .transform((v) => v === "1"),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(25),
});
export type ListEnvironmentsQuery = z.infer<typeof ListEnvironmentsQuerySchema>;

export type EnvironmentListFilters = Pick<
  ListEnvironmentsQuery,
  "q" | "status" | "domain" | "page" | "pageSize"
> & { archived?: boolean };

/** The list's query string with defaults left out (`q=lib&page=2`): the page's URL and the API's. */
export function environmentListSearch(f: EnvironmentListFilters): string {
  const p = new URLSearchParams();
  if (f.q) p.set("q", f.q);
  if (f.status) p.set("status", f.status);
  if (f.domain) p.set("domain", f.domain);
  if (f.archived) p.set("archived", "1");
  if (f.page > 1) p.set("page", String(f.page));
  if (f.pageSize !== 25) p.set("pageSize", String(f.pageSize));
  return p.toString();
}

/** Parses URLSearchParams-like input, treating empty strings as absent. */
export function parseListQuery(params: Record<string, string | string[] | undefined>) {
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) {
    const value = Array.isArray(v) ? v[0] : v;
    if (value !== undefined && value !== "") flat[k] = value;
  }
  return ListEnvironmentsQuerySchema.safeParse(flat);
}

/** One row of GET /api/environments. */
export const EnvironmentListItemSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  domain: z.string(),
  status: EnvironmentStatusSchema,
  origin: z.string(),
  toolCount: z.number(),
  scenarioCount: z.number(),
  /** When it was archived; null while it is listed normally. */
  archivedAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type EnvironmentListItem = z.infer<typeof EnvironmentListItemSchema>;
export const EnvironmentListPageSchema = pageSchemaOf(EnvironmentListItemSchema);
export type EnvironmentListPage = z.infer<typeof EnvironmentListPageSchema>;

export const ToolSchema = z.object({
  type: z.literal("function"),
  function: z.object({
    name: z.string(),
    description: z.string().optional().default(""),
    parameters: z
      .object({
        type: z.literal("object").optional(),
        properties: z.record(z.string(), z.unknown()).optional().default({}),
        required: z.array(z.string()).optional().default([]),
      })
      .passthrough()
      .optional()
      .default({ properties: {}, required: [] }),
  }),
});
export type Tool = z.infer<typeof ToolSchema>;

/** Stored tool schemas are JSON from the sandbox; parse defensively for display. */
export function parseTools(value: unknown): Tool[] {
  const parsed = z.array(ToolSchema).safeParse(value);
  return parsed.success ? parsed.data : [];
}

/** Archive (hide from lists, kept with its history) or restore an environment; audited. */
export const ArchiveEnvironmentSchema = z.object({
  environmentId: z.string().min(1).max(64),
  archived: z.boolean(),
  reason: z.string().trim().max(500).default(""),
});
export type ArchiveEnvironmentInput = z.infer<typeof ArchiveEnvironmentSchema>;
