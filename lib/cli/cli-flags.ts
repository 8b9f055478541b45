/**
 * The one flag parser of every `envstudio` command, and the one error for usage mistakes: a
 * command throws `UsageError` and the entry (main.ts) prints it with the command's usage and exits
 * with `EXIT.usage` (2), whichever command it was.
 */
import { parseArgs } from "node:util";

export class UsageError extends Error {
  /** `usage`: the command's own usage text, printed after the message (default: its help line). */
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message);
    this.name = "UsageError";
  }
}

export type FlagSpec = {
  /** Flags that take a value (`--name VALUE` or `--name=VALUE`). */
  strings?: readonly string[];
  /** Flags that are on when present (`--no-worker`). */
  booleans?: readonly string[];
  /** Whether bare arguments (file names) are allowed; a stray one is a usage mistake otherwise. */
  positionals?: boolean;
};

export type Flags = { values: Record<string, string | boolean | undefined>; positionals: string[] };

/** Strict: an unknown flag, a missing value or an unexpected argument is a `UsageError`. */
export function parseFlags(argv: string[], spec: FlagSpec): Flags {
  const options: Record<string, { type: "string" | "boolean" }> = {};
  for (const name of spec.strings ?? []) options[name] = { type: "string" };
  for (const name of spec.booleans ?? []) options[name] = { type: "boolean" };
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options,
      strict: true,
      allowPositionals: spec.positionals ?? false,
    });
    return { values, positionals };
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

export function stringFlag(values: Flags["values"], name: string): string | undefined {
  const value = values[name];
  return typeof value === "string" ? value : undefined;
}

export function requiredString(values: Flags["values"], name: string): string {
  const value = stringFlag(values, name);
  if (!value) throw new UsageError(`missing --${name}`);
  return value;
}

/** `--version N`, `--seed N`: 0, 1, 2… */
export const WHOLE_NUMBER = { integer: true, min: 0, what: "a whole number" } as const;

type NumberRule = { integer?: boolean; min?: number; max?: number; exclusiveMin?: boolean; what?: string };

/**
 * A numeric flag, or undefined when absent. Anything that is not a finite number within the rule
 * (NaN, "12abc", a fraction for an integer) is a usage mistake naming the flag and the value.
 */
export function numberFlag(values: Flags["values"], name: string, rule: NumberRule = {}): number | undefined {
  const raw = stringFlag(values, name);
  if (raw === undefined) return undefined;
  const n = raw.trim() === "" ? NaN : Number(raw);
  const tooSmall = rule.min !== undefined && (rule.exclusiveMin ? n <= rule.min : n < rule.min);
  const tooLarge = rule.max !== undefined && n > rule.max;
  if (!Number.isFinite(n) || (rule.integer && !Number.isInteger(n)) || tooSmall || tooLarge)
    throw new UsageError(`--${name} must be ${rule.what ?? describeRule(rule)} (got ${raw})`);
  return n;
}

function describeRule({ integer, min, max, exclusiveMin }: NumberRule): string {
  const kind = integer ? "an integer" : "a number";
  if (min !== undefined && max !== undefined) return `${kind} from ${min} to ${max}`;
  if (min === 0 && exclusiveMin) return `a positive ${integer ? "integer" : "number"}`;
  if (min !== undefined) return exclusiveMin ? `${kind} above ${min}` : `${kind} of at least ${min}`;
  return kind;
}

/** A string flag restricted to a few choices. */
export function choiceFlag<T extends string>(
  values: Flags["values"],
  name: string,
  choices: readonly T[],
): T | undefined {
  const raw = stringFlag(values, name);
  if (raw === undefined) return undefined;
  if (!(choices as readonly string[]).includes(raw))
    throw new UsageError(`--${name} must be ${choices.join(" or ")} (got ${raw})`);
  return raw as T;
}
