/**
 * Bulk decisions on the review queue: what a selection is, the four bulk operations' inputs and the
 * one reply they share. A selection is either the items the reviewer ticked (each naming the versions
 * they saw, like a single decision) or "every item matching this filter", which the server resolves
 * with the queue's own filter — a count the browser sends is never trusted.
 */
import { z } from "zod";
import { QueueFilterSchema, ReviewKindSchema } from "./review.schema";

/** The most items one bulk operation takes; a larger selection is refused (narrow the filter). */
export const BULK_CAP = 1000;

const id = z.string().min(1).max(100);

/** One ticked item and the versions the reviewer saw (the same fields a single decision names). */
export const BulkItemSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("environment"), id, versionId: id }),
  z.object({
    kind: z.literal("scenario"),
    id,
    environmentVersionId: id,
    validatorVersionIds: z.array(id).max(500),
  }),
  z.object({ kind: z.literal("trajectory"), id }),
  z.object({ kind: z.literal("repair"), id }),
]);
export type BulkItem = z.infer<typeof BulkItemSchema>;

export const BulkSelectionSchema = z.discriminatedUnion("mode", [
  z.object({
    mode: z.literal("items"),
    items: z
      .array(BulkItemSchema)
      .min(1, "select at least one item")
      .max(BULK_CAP, `at most ${BULK_CAP} items at once`),
  }),
  z.object({
    mode: z.literal("filter"),
    filter: QueueFilterSchema,
    /**
     * When the reviewer saw the queue (the page's load time, from the server): an item edited or
     * added after it is skipped, as a single decision on a version nobody saw would be refused.
     */
    asOf: z.iso.datetime(),
    /** Items matching the filter the reviewer unticked (`kind:id`). */
    except: z.array(z.string().max(200)).max(BULK_CAP).default([]),
  }),
]);
export type BulkSelection = z.input<typeof BulkSelectionSchema>;

export const BulkAcceptInputSchema = z.object({ selection: BulkSelectionSchema });
export const BulkRejectInputSchema = z.object({
  selection: BulkSelectionSchema,
  reason: z.string().trim().min(1, "a rejection needs a reason").max(2000),
});
export const BulkProveInputSchema = z.object({ selection: BulkSelectionSchema });
export const BulkAddToDatasetInputSchema = z.object({ selection: BulkSelectionSchema, datasetId: id });
/** From the Scenarios list: the ticked scenarios, added to a dataset's next version. */
export const AddScenariosToDatasetInputSchema = z.object({
  datasetId: id,
  scenarioIds: z
    .array(id)
    .min(1, "select at least one scenario")
    .max(BULK_CAP, `at most ${BULK_CAP} scenarios at once`),
});
export type BulkAcceptInput = z.input<typeof BulkAcceptInputSchema>;
export type BulkRejectInput = z.input<typeof BulkRejectInputSchema>;
export type BulkProveInput = z.input<typeof BulkProveInputSchema>;
export type BulkAddToDatasetInput = z.input<typeof BulkAddToDatasetInputSchema>;

export const BulkSkippedSchema = z.object({ kind: ReviewKindSchema, id: z.string(), reason: z.string() });
export type BulkSkipped = z.infer<typeof BulkSkippedSchema>;

/**
 * What a bulk operation did: how many items the selection held, how many were decided (accepted,
 * rejected, queued for proof, added to the dataset) and each one skipped with why. A proof answers
 * its run; adding to a dataset answers the version it made (null when nothing could be added).
 */
export const BulkReplySchema = z.object({
  selected: z.number().int(),
  decided: z.number().int(),
  skipped: z.array(BulkSkippedSchema),
  runId: z.string().nullable().optional(),
  dataset: z.object({ id: z.string(), name: z.string(), version: z.number().int() }).nullable().optional(),
});
export type BulkReply = z.infer<typeof BulkReplySchema>;
