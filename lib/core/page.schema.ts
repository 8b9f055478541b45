import { z } from "zod";

/**
 * One page of a searched, paged list as a route answers it: the page's items, how many rows match
 * the search in all, and which page of what size this is.
 */
export const pageSchemaOf = <Item extends z.ZodType>(item: Item) =>
  z.object({
    items: z.array(item),
    total: z.number(),
    page: z.number(),
    pageSize: z.number(),
  });
