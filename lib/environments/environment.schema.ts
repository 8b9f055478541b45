import { z } from "zod";

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
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(25),
});
export type ListEnvironmentsQuery = z.infer<typeof ListEnvironmentsQuerySchema>;

/** Parses URLSearchParams-like input, treating empty strings as absent. */
export function parseListQuery(params: Record<string, string | string[] | undefined>) {
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) {
    const value = Array.isArray(v) ? v[0] : v;
    if (value !== undefined && value !== "") flat[k] = value;
  }
  return ListEnvironmentsQuerySchema.safeParse(flat);
}

export type EnvironmentListItem = {
  id: string;
  slug: string;
  name: string;
  domain: string;
  status: EnvironmentStatusValue;
  origin: string;
  toolCount: number;
  scenarioCount: number;
  updatedAt: string;
};
export type EnvironmentListPage = {
  items: EnvironmentListItem[];
  total: number;
  page: number;
  pageSize: number;
};

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
