import type { z } from "zod";
import { AppError } from "./errors";
import { formatZodIssues } from "./zod-issues";

/** Parses a boundary's input or refuses it as INVALID_INPUT naming each bad field; for actions and routes alike. */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new AppError("INVALID_INPUT", formatZodIssues(parsed.error));
  return parsed.data;
}
