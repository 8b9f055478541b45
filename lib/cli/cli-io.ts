/**
 * What every `envstudio` command shares with the entry (lib/cli/main.ts): where it prints, and
 * the exit codes. Kept apart from main.ts so commands never import the entry that imports them.
 */

export type CliIo = { out: (line: string) => void; err: (line: string) => void };

export const processIo: CliIo = {
  out: (line) => process.stdout.write(line + "\n"),
  err: (line) => process.stderr.write(line + "\n"),
};

/** Exit codes of every command. A usage mistake is 2, the Unix convention (as getopt tools do). */
export const EXIT = {
  ok: 0,
  /** The command ran and failed (a refused import, a dataset not found, a sandbox error…). */
  failed: 1,
  /** Unknown command or flag, missing or malformed argument: nothing was attempted. */
  usage: 2,
} as const;

export type CommandGroup = {
  name: string;
  /** One line for the help text, e.g. "env tools|replay …". */
  usage: string;
  /** What `envstudio <name> --help` prints: every verb and flag the command accepts, explained. */
  help: string;
  run: (argv: string[], io: CliIo) => Promise<number>;
};
