/** The one flag parser and the one exit code for usage mistakes, across every command group. */
import { describe, expect, it } from "vitest";
import {
  UsageError,
  WHOLE_NUMBER,
  choiceFlag,
  numberFlag,
  parseFlags,
  requiredString,
  stringFlag,
} from "./cli-flags";
import { EXIT } from "./cli-io";
import { COMMAND_GROUPS } from "./commands";
import { main } from "./main";

const usageMessage = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error("expected a UsageError");
};

describe("parseFlags", () => {
  it("reads string and boolean flags, both spellings", () => {
    const { values, positionals } = parseFlags(["--name", "a", "--out=b", "--dry"], {
      strings: ["name", "out"],
      booleans: ["dry"],
    });
    expect(values).toEqual({ name: "a", out: "b", dry: true });
    expect(positionals).toEqual([]);
  });

  it("turns unknown flags, missing values and stray arguments into UsageError", () => {
    expect(usageMessage(() => parseFlags(["--bogus"], { strings: ["name"] }))).toMatch(
      /Unknown option '--bogus'/,
    );
    expect(usageMessage(() => parseFlags(["--name"], { strings: ["name"] }))).toMatch(/--name/);
    expect(usageMessage(() => parseFlags(["stray"], { strings: ["name"] }))).toMatch(
      /Unexpected argument 'stray'/,
    );
  });

  it("accepts positionals only when the command takes them", () => {
    expect(
      parseFlags(["a.json", "--class", "X", "b"], { strings: ["class"], positionals: true }).positionals,
    ).toEqual(["a.json", "b"]);
  });
});

describe("flag values", () => {
  const { values } = parseFlags(
    ["--n", "3", "--x", "NaN", "--f", "1.5", "--neg=-1", "--empty=", "--mode", "b"],
    {
      strings: ["n", "x", "f", "neg", "empty", "mode"],
    },
  );

  it("requires and reads strings", () => {
    expect(requiredString(values, "n")).toBe("3");
    expect(usageMessage(() => requiredString(values, "absent"))).toBe("missing --absent");
    expect(usageMessage(() => requiredString(values, "empty"))).toBe("missing --empty");
    expect(stringFlag(values, "absent")).toBeUndefined();
  });

  it("parses numbers and rejects NaN, fractions for integers, and values out of range, naming the flag", () => {
    expect(numberFlag(values, "n", WHOLE_NUMBER)).toBe(3);
    expect(numberFlag(values, "absent", WHOLE_NUMBER)).toBeUndefined();
    expect(numberFlag(values, "f")).toBe(1.5);
    expect(usageMessage(() => numberFlag(values, "x"))).toBe("--x must be a number (got NaN)");
    expect(usageMessage(() => numberFlag(values, "empty"))).toBe("--empty must be a number (got )");
    expect(usageMessage(() => numberFlag(values, "f", WHOLE_NUMBER))).toBe(
      "--f must be a whole number (got 1.5)",
    );
    expect(usageMessage(() => numberFlag(values, "neg", { min: 0, exclusiveMin: true, integer: true }))).toBe(
      "--neg must be a positive integer (got -1)",
    );
    expect(usageMessage(() => numberFlag(values, "n", { integer: true, min: 1, max: 2 }))).toBe(
      "--n must be an integer from 1 to 2 (got 3)",
    );
  });

  it("restricts choices", () => {
    expect(choiceFlag(values, "mode", ["a", "b"])).toBe("b");
    expect(choiceFlag(values, "absent", ["a", "b"])).toBeUndefined();
    expect(usageMessage(() => choiceFlag(values, "mode", ["a", "c"]))).toBe("--mode must be a or c (got b)");
  });
});

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("exit codes", () => {
  it("help is 0, no command or an unknown one is 2", async () => {
    expect(await cli("--help")).toMatchObject({
      code: EXIT.ok,
      out: expect.stringContaining("usage: envstudio <command>") as unknown,
    });
    expect((await cli()).code).toBe(EXIT.usage);
    expect(await cli("frob")).toMatchObject({
      code: EXIT.usage,
      err: expect.stringContaining("unknown command 'frob'") as unknown,
    });
  });

  // An unknown flag is refused before any command touches a database, a sandbox or a file.
  it.each(COMMAND_GROUPS.map((g) => [g.name]))(
    "envstudio %s: an unknown flag exits 2 with the usage",
    async (name) => {
      const verb = { env: ["tools"], pipeline: ["run"], dataset: ["create"] }[name] ?? [];
      const result = await cli(name, ...verb, "--bogus-flag");
      expect(result.code).toBe(EXIT.usage);
      expect(result.err).toMatch(new RegExp(`^envstudio ${name}: Unknown option '--bogus-flag'`));
      expect(result.err).toContain("usage:");
    },
  );

  it("a UsageError thrown by any command is 2; any other error is 1", async () => {
    const group = {
      name: "probe",
      usage: "probe --x N",
      help: "usage:\n  envstudio probe --x N",
      run: (argv: string[]) =>
        Promise.reject(argv[0] === "usage" ? new UsageError("bad --x") : new Error("disk full")),
    };
    COMMAND_GROUPS.push(group);
    try {
      expect(await cli("probe", "usage")).toEqual({
        code: EXIT.usage,
        out: "",
        err: "envstudio probe: bad --x\nusage: envstudio probe --x N",
      });
      expect(await cli("probe", "other")).toEqual({
        code: EXIT.failed,
        out: "",
        err: "envstudio probe: disk full",
      });
    } finally {
      COMMAND_GROUPS.splice(COMMAND_GROUPS.indexOf(group), 1);
    }
  });
});
