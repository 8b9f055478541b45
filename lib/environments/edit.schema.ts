import { z } from "zod";

export const MAX_SOURCE_LENGTH = 500_000;

export const SaveEnvironmentVersionInputSchema = z.object({
  environmentId: z.string().min(1),
  /** The version the edit started from: the save is refused if the head has moved since. */
  baseVersionId: z.string().min(1),
  source: z.string().min(1, "the source is empty").max(MAX_SOURCE_LENGTH),
  message: z.string().trim().min(1, "describe the change in a message").max(500),
  /** After a three-way merge: the version the edit started from (baseVersionId is the merged head). */
  mergeBaseVersionId: z.string().min(1).optional(),
});
export type SaveEnvironmentVersionInput = z.infer<typeof SaveEnvironmentVersionInputSchema>;

export const AnalyzeSourceInputSchema = z.object({
  environmentId: z.string().min(1),
  source: z.string().max(MAX_SOURCE_LENGTH),
});

/** AppError details of a refused stale save: what the editor needs to show the diff. */
export type HeadConflict = {
  headVersionId: string;
  headVersion: number;
  headSource: string;
  headAuthor: string;
  headMessage: string;
  headCreatedAt: string;
};

/** A merge the editor holds until saved: the version the edit started from and the head it merged. */
export type PendingMerge = { startedFromId: string; startedFromVersion: number; headVersion: number };
