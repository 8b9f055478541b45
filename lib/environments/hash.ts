import { createHash } from "node:crypto";

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** Task text normalised for duplicate detection: case, punctuation and spacing do not matter. */
export const normalizeTask = (task: string) =>
  task
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
export const taskHash = (task: string) => sha256(normalizeTask(task));
