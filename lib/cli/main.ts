/**
 * `envstudio` command-line entry. Each domain contributes a command group; this file only routes
 * `envstudio <group> <verb> [flags]` to it and turns thrown errors into one clear line + exit code.
 */
import { COMMAND_GROUPS } from "./commands";

export type CliIo = { out: (line: string) => void; err: (line: string) => void };

const defaultIo: CliIo = {
  out: (line) => process.stdout.write(line + "\n"),
  err: (line) => process.stderr.write(line + "\n"),
};

function usage(): string {
  const lines = ["usage: envstudio <command> [options]", "", "commands:"];
  for (const group of COMMAND_GROUPS) lines.push(`  ${group.usage}`);
  return lines.join("\n");
}

export async function main(argv: string[], io: CliIo = defaultIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    io.out(usage());
    return name ? 0 : 2;
  }
  const group = COMMAND_GROUPS.find((g) => g.name === name);
  if (!group) {
    io.err(`envstudio: unknown command '${name}'\n\n${usage()}`);
    return 2;
  }
  try {
    return await group.run(rest, io);
  } catch (error) {
    io.err(`envstudio ${name}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
