import { z } from "zod";

/** The `[id]` segment of a route: any non-empty string (a row that does not exist is a 404 later). */
export const IdParamsSchema = z.object({ id: z.string().min(1) });
