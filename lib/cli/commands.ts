import type { CliIo } from "./main";

export type CommandGroup = {
  name: string;
  /** One line for the help text, e.g. "env tools|replay …". */
  usage: string;
  run: (argv: string[], io: CliIo) => Promise<number>;
};

/** Every command group of the CLI. Domains add theirs here (imported lazily to keep start-up fast). */
export const COMMAND_GROUPS: CommandGroup[] = [];
