import type { CliIo } from "./main";

export type CommandGroup = {
  name: string;
  /** One line for the help text, e.g. "env tools|replay …". */
  usage: string;
  run: (argv: string[], io: CliIo) => Promise<number>;
};

/** Every command group of the CLI. Domains add theirs here (imported lazily to keep start-up fast). */
export const COMMAND_GROUPS: CommandGroup[] = [
  {
    name: "env",
    usage: "env tools --source env.py --class Name | env replay --episodes file.jsonl [--backend pyodide|bwrap] [--concurrency N]",
    run: async (argv, io) => (await import("./env-command")).runEnvCommand(argv, io),
  },
  {
    name: "pipeline",
    usage: "pipeline run --ideas ideas.txt | --tasks tasks.jsonl [--text-field F] [--models …] [--rounds N] [--max-tokens N] [--max-cost USD] [--no-worker]",
    run: async (argv, io) => (await import("./pipeline-command")).runPipelineCommand(argv, io),
  },
];
