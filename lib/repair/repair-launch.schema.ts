/** What a "Repair failing items" button sends: the page's item (parsed in the action, again in the domain). */
import { z } from "zod";

const id = z.string().min(1).max(100);

export const LaunchRepairSchema = z.object({
  target: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("environment"), id }),
    z.object({ kind: z.literal("datasetVersion"), id }),
    z.object({ kind: z.literal("run"), id }),
  ]),
  model: z.string().trim().min(1).max(200).optional(),
  maxCostUsd: z.coerce.number().positive("a cost budget must be more than $0").optional(),
});
export type LaunchRepair = z.infer<typeof LaunchRepairSchema>;
