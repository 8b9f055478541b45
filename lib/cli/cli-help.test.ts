import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { FlagSpec } from "./cli-flags";
import { EXIT } from "./cli-io";
import { COMMAND_GROUPS } from "./commands";
import { EXPORT_FLAGS, IMPORT_FLAGS } from "./dataset-commands";
import { ENV_REPLAY_FLAGS, ENV_TOOLS_FLAGS } from "./env-command";
import { main } from "./main";
import { MCP_FLAGS } from "./mcp-command";
import { PIPELINE_RUN_FLAGS } from "./pipeline-input";
import { REPAIR_FLAGS } from "./repair-command";
import { ROLLOUTS_FLAGS } from "./rollouts-command";
import { DATASET_CREATE_FLAGS, SERVE_FLAGS } from "./serve-command";

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/** The flag specs each command parses with: what its help must explain, no more, no less. */
const SPECS: Record<string, FlagSpec[]> = {
  env: [ENV_TOOLS_FLAGS, ENV_REPLAY_FLAGS],
  pipeline: [PIPELINE_RUN_FLAGS],
  dataset: [DATASET_CREATE_FLAGS],
  export: [EXPORT_FLAGS],
  import: [IMPORT_FLAGS],
  serve: [SERVE_FLAGS],
  mcp: [MCP_FLAGS],
  repair: [REPAIR_FLAGS],
  rollouts: [ROLLOUTS_FLAGS],
};
const VERBS: Record<string, string[]> = {
  env: ["tools", "replay"],
  pipeline: ["run"],
  dataset: ["list", "create"],
};

describe("envstudio <command> --help", () => {
  it("covers every command group", () => {
    expect(Object.keys(SPECS).sort()).toEqual(COMMAND_GROUPS.map((g) => g.name).sort());
  });

  it.each(COMMAND_GROUPS.map((g) => [g.name]))(
    "%s: --help, -h and `help %s` print its help and exit 0",
    async (name) => {
      const group = COMMAND_GROUPS.find((g) => g.name === name)!;
      const forms = [
        [name, "--help"],
        [name, "-h"],
        ["help", name],
        ...(VERBS[name] ?? []).map((verb) => [name, verb, "--help"]),
        // Help wins over flags that would be refused, and over missing required ones.
        [name, ...(VERBS[name]?.slice(-1) ?? []), "--bogus-flag", "--help"],
      ];
      for (const argv of forms) {
        const result = await cli(...argv);
        expect(result, argv.join(" ")).toEqual({ code: EXIT.ok, out: group.help, err: "" });
      }
      expect(group.help.startsWith(`usage:\n  envstudio ${name}`)).toBe(true);
    },
  );

  it.each(Object.entries(SPECS))(
    "%s: the help explains exactly the flags the command accepts",
    (name, specs) => {
      const help = COMMAND_GROUPS.find((g) => g.name === name)!.help;
      const accepted = new Set(specs.flatMap((s) => [...(s.strings ?? []), ...(s.booleans ?? [])]));
      const explained = new Set([...help.matchAll(/^ {2}--([a-z-]+)/gm)].map((m) => m[1] ?? ""));
      expect([...explained].sort()).toEqual([...accepted].sort());
      const mentioned = new Set([...help.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1] ?? ""));
      for (const flag of mentioned) expect(accepted.has(flag), `--${flag} in the help of ${name}`).toBe(true);
    },
  );

  it("a `--help` after `--` is an argument, not a request for help", async () => {
    const result = await cli("import", "--", "--help");
    expect(result.out).toBe("");
    expect(result.code).not.toBe(EXIT.ok);
  });

  it("the installed binary answers `import --help` with exit 0", () => {
    const bin = path.join(import.meta.dirname, "../../bin/envstudio.mjs");
    const run = spawnSync(process.execPath, [bin, "import", "--help"], { encoding: "utf8", timeout: 60_000 });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("usage:\n  envstudio import FILE|FOLDER");
    expect(run.stderr).not.toContain("Unknown option");
  });
});
