/** Shared flag parsing for the dataset command groups. */
import { parseArgs } from "node:util";

export class UsageError extends Error {}

export function flags(argv: string[], names: string[], booleans: string[] = []): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  try {
    const options: Record<string, { type: "string" | "boolean" }> = {};
    for (const n of names) options[n] = { type: "string" };
    for (const n of booleans) options[n] = { type: "boolean" };
    const { values, positionals } = parseArgs({ args: argv, options, strict: true, allowPositionals: true });
    return { values: values, positionals };
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

export function requiredString(values: Record<string, string | boolean | undefined>, name: string): string {
  const value = values[name];
  if (typeof value !== "string" || !value) throw new UsageError(`missing --${name}`);
  return value;
}
