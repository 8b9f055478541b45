import { z } from "zod";

export const SaveValidatorVersionInputSchema = z.object({
  validatorId: z.string().min(1),
  /** Optimistic lock, as for environment code: refused if the validator's head moved. */
  baseVersionId: z.string().min(1),
  code: z.string().min(1, "the check function is empty").max(100_000),
  message: z.string().trim().min(1, "describe the change in a message").max(500),
});
export type SaveValidatorVersionInput = z.infer<typeof SaveValidatorVersionInputSchema>;
