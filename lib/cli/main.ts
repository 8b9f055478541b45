/**
 * `envstudio` command-line entry. Each domain contributes a command group; this file only routes
 * `envstudio <group> <verb> [flags]` to it and turns thrown errors into one clear line + exit code:
 * a `UsageError` (any command) exits 2 with the usage, anything else exits 1.
 * `envstudio <command> … --help` (or `-h`, or `envstudio help <command>`) prints that command's
 * help and exits 0 before the command parses anything or opens a database.
 */
import { UsageError } from "./cli-flags";
import { type CliIo, EXIT, processIo } from "./cli-io";
import { COMMAND_GROUPS } from "./commands";

function usage(): string {
  const lines = ["usage: envstudio <command> [options]", "", "commands:"];
  for (const group of COMMAND_GROUPS) lines.push(`  ${group.usage}`);
  lines.push("", "envstudio <command> --help explains a command's flags.");
  return lines.join("\n");
}

/** `--help` / `-h` among a command's arguments, before a `--` that ends the flags. */
function asksForHelp(args: string[]): boolean {
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).some((a) => a === "--help" || a === "-h");
}

export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  // `envstudio help import` is `envstudio import --help`.
  const [name, ...rest] = argv[0] === "help" && argv[1] !== undefined ? [argv[1], "--help"] : argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    io.out(usage());
    return name ? EXIT.ok : EXIT.usage;
  }
  const group = COMMAND_GROUPS.find((g) => g.name === name);
  if (!group) {
    io.err(`envstudio: unknown command '${name}'\n\n${usage()}`);
    return EXIT.usage;
  }
  if (asksForHelp(rest)) {
    io.out(group.help);
    return EXIT.ok;
  }
  try {
    return await group.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`envstudio ${name}: ${error.message}\n${error.usage ?? `usage: envstudio ${group.usage}`}`);
      return EXIT.usage;
    }
    io.err(`envstudio ${name}: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.failed;
  }
}
