/**
 * The new-dataset and new-version forms' environment picker: one searched page of the environments a
 * dataset can be made from. A project may hold tens of thousands of them, so the picker never
 * receives them all; it searches and pages on the server.
 */
import { z } from "zod";
import { pageSchemaOf } from "../core/page.schema";
import { queryString } from "../api/api-route";

export const ELIGIBLE_PAGE_SIZE = 50;

export const EligibleEnvironmentsQuerySchema = z.object({
  /** Matches the name or the env_id, any case. */
  q: z.string().trim().max(200, "search at most 200 characters").default(""),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export type EligibleEnvironmentsQuery = z.infer<typeof EligibleEnvironmentsQuerySchema>;

export const EligibleEnvironmentSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  acceptedScenarios: z.number(),
});
export type EligibleEnvironment = z.infer<typeof EligibleEnvironmentSchema>;

export const EligibleEnvironmentsPageSchema = pageSchemaOf(EligibleEnvironmentSchema);
export type EligibleEnvironmentsPage = z.infer<typeof EligibleEnvironmentsPageSchema>;

/** The query string of a query (`q=…&page=…`, defaults left out; "" when both are defaults). */
export const eligibleEnvironmentsSearch = (query: Partial<EligibleEnvironmentsQuery>) =>
  queryString({ q: query.q || undefined, page: query.page && query.page > 1 ? query.page : undefined }).slice(
    1,
  );
