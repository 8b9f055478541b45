import { z } from "zod";

export const SaveValidatorVersionInputSchema = z.object({
  validatorId: z.string().min(1),
  /** Optimistic lock, as for environment code: refused if the validator's head moved. */
  baseVersionId: z.string().min(1),
  code: z.string().min(1, "the check function is empty").max(100_000),
  message: z.string().trim().min(1, "describe the change in a message").max(500),
  /** After a three-way merge: the version the edit started from (baseVersionId is the merged head). */
  mergeBaseVersionId: z.string().min(1).optional(),
  /** The checklist text of this check, edited in the same place as its code. */
  checkItem: z.string().trim().min(1, "the checklist item is empty").max(1000).optional(),
});
export type SaveValidatorVersionInput = z.infer<typeof SaveValidatorVersionInputSchema>;
