import { FORMAT_ALIASES } from "../export/formats/registry";
import type { CommandGroup } from "./cli-io";
import {
  DATASET_HELP,
  ENV_HELP,
  EXPORT_HELP,
  IMPORT_HELP,
  PIPELINE_HELP,
  REPAIR_HELP,
  ROLLOUTS_HELP,
  SERVE_HELP,
  MCP_HELP,
} from "./help-texts";

/** Every command group of the CLI. Domains add theirs here (imported lazily to keep start-up fast). */
export const COMMAND_GROUPS: CommandGroup[] = [
  {
    name: "env",
    help: ENV_HELP,
    usage:
      "env tools --source env.py --class Name | env replay --episodes file.jsonl [--backend pyodide|bwrap] [--concurrency N]",
    run: async (argv, io) => (await import("./env-command")).runEnvCommand(argv, io),
  },
  {
    name: "pipeline",
    help: PIPELINE_HELP,
    usage:
      "pipeline run --ideas ideas.txt | --tasks tasks.jsonl [--text-field F] [--models …] [--rounds N] [--max-tokens N] [--max-cost USD] [--no-worker]",
    run: async (argv, io) => (await import("./pipeline-command")).runPipelineCommand(argv, io),
  },
  {
    name: "dataset",
    help: DATASET_HELP,
    usage:
      "dataset list | dataset create --name NAME [--seed N] [--test-ratio R] [--env a,b] [--allow-unverified] [--exclude-zero-signal] [--group-size G]",
    run: async (argv, io) => (await import("./serve-command")).runDatasetCommand(argv, io),
  },
  {
    name: "rollouts",
    help: ROLLOUTS_HELP,
    usage:
      "rollouts --dataset NAME [--version N] --k K [--models m1,m2] [--max-cost USD] [--conversational] [--no-worker]",
    run: async (argv, io) => (await import("./rollouts-command")).runRolloutsCommand(argv, io),
  },
  {
    name: "export",
    help: EXPORT_HELP(Object.keys(FORMAT_ALIASES)),
    usage:
      "export --dataset NAME [--version N] --format envscaler|openai|llamafactory|hf|verl|openenv --out PATH[.tar]",
    run: async (argv, io) => (await import("./dataset-commands")).runExportCommand(argv, io),
  },
  {
    name: "import",
    help: IMPORT_HELP,
    usage:
      "import FILE|FOLDER … [--class Name] [--env-id ID] [--on-existing fail|new-name|new-version]  (EnvScaler JSON, or environment.py + scenarios.json)",
    run: async (argv, io) => (await import("./dataset-commands")).runImportCommand(argv, io),
  },
  {
    name: "repair",
    help: REPAIR_HELP,
    usage: "repair --dataset NAME [--version N] | --env ENV_ID | --scenario ID [--max-cost USD] [--model M]",
    run: async (argv, io) => (await import("./repair-command")).runRepairCommand(argv, io),
  },
  {
    name: "serve",
    help: SERVE_HELP,
    usage:
      "serve --dataset NAME [--version N] [--port 8100] [--host 127.0.0.1]  (RL environment server, OpenEnv protocol: docs/envserver.md; no token on a loopback bind unless ENVSTUDIO_SERVE_TOKEN is set, else that token or a printed one)",
    run: async (argv, io) => (await import("./serve-command")).runServeCommand(argv, io),
  },
  {
    name: "mcp",
    help: MCP_HELP,
    usage:
      "mcp --dataset NAME [--version N] [--scenario ID] [--seed N]  (one episode over MCP stdio, for desktop and CLI agents: docs/envserver.md)",
    run: async (argv, io) => (await import("./mcp-command")).runMcpCommand(argv, io),
  },
];
