/**
 * `npm test`: every tier — unit (vitest), database (vitest, real Postgres), browser (Playwright in
 * Debian Chromium against the built studio) — then one closing line `N passed, N failed` summed
 * over all of them. Exits non-zero if anything failed or a tier did not report.
 * `npm test -- unit db` runs only the named tiers.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const REPORTS = path.join(ROOT, "reports");
type Counts = { passed: number; failed: number; skipped: number };
/** A tier's counts and a line per failure (file, test, first line of its error), printed last. */
type Report = Counts & { failures: string[] };

const ESCAPE = String.fromCharCode(27); // terminal colour codes in runner messages
const firstLine = (text: string | undefined) =>
  (text ?? "")
    .split(ESCAPE)
    .map((part, i) => (i === 0 ? part : part.replace(/^\[[0-9;]*m/, "")))
    .join("")
    .split("\n")
    .find((l) => l.trim())
    ?.trim()
    .slice(0, 300) ?? "";
const relative = (file: string) => path.relative(ROOT, file) || file;

/** A runner whose report file is read for its counts, or a check whose counts come from running it. */
type Tier =
  | { name: string; command: string[]; report: string; read: (json: unknown) => Report }
  | { name: string; run: () => Promise<Counts> };

const vitestCounts = (json: unknown): Report => {
  const j = json as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
    testResults?: {
      name: string;
      status: string;
      message?: string;
      assertionResults: { status: string; fullName: string; failureMessages?: string[] }[];
    }[];
  };
  const failures: string[] = [];
  let unloaded = 0;
  for (const file of j.testResults ?? []) {
    const failed = file.assertionResults.filter((a) => a.status === "failed");
    for (const a of failed)
      failures.push(`${relative(file.name)} › ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
    // A file that fails to load has no failed *tests*; count it so the run cannot look green. A file
    // whose tests failed is already counted by them.
    if (file.status === "failed" && failed.length === 0) {
      unloaded += 1;
      failures.push(`${relative(file.name)}: ${firstLine(file.message) || "failed outside its tests"}`);
    }
  }
  return {
    passed: j.numPassedTests,
    failed: j.numFailedTests + unloaded,
    skipped: j.numPendingTests + j.numTodoTests,
    failures,
  };
};

type PlaywrightSuite = {
  file?: string;
  suites?: PlaywrightSuite[];
  specs?: {
    title: string;
    file: string;
    line: number;
    tests: { status: string; results: { error?: { message?: string } }[] }[];
  }[];
};
const playwrightFailures = (suite: PlaywrightSuite): string[] => [
  ...(suite.specs ?? []).flatMap((spec) =>
    spec.tests
      .filter((t) => t.status === "unexpected")
      .map(
        (t) => `${spec.file}:${spec.line} › ${spec.title}: ${firstLine(t.results.at(-1)?.error?.message)}`,
      ),
  ),
  ...(suite.suites ?? []).flatMap(playwrightFailures),
];
const playwrightCounts = (json: unknown): Report => {
  const s = json as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
    errors?: { message?: string }[];
    suites?: PlaywrightSuite[];
  };
  return {
    passed: s.stats.expected + s.stats.flaky,
    failed: s.stats.unexpected + (s.errors?.length ?? 0),
    skipped: s.stats.skipped,
    failures: [
      ...(s.suites ?? []).flatMap(playwrightFailures),
      ...(s.errors ?? []).map((e) => `playwright: ${firstLine(e.message)}`),
    ],
  };
};

const vitest = (project: string): Tier => ({
  name: project,
  command: [
    "node_modules/.bin/vitest",
    "run",
    "--project",
    project,
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=reports/vitest-${project}.json`,
  ],
  report: `vitest-${project}.json`,
  read: vitestCounts,
});

/** One check's exit status and everything it printed, printed once it is done (lanes run side by side). */
function runCheck([cmd, ...args]: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(cmd!, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    const output: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => output.push(b));
    child.stderr.on("data", (b: Buffer) => output.push(b));
    child.on("error", (e) => output.push(Buffer.from(`${e.message}\n`)));
    child.on("close", (code) => {
      process.stdout.write(`$ ${path.basename(cmd!)} ${args.join(" ")}\n${Buffer.concat(output).toString()}`);
      resolve(code === 0);
    });
  });
}

/**
 * Type checking and lint as pass/fail checks; no report file, the exit code is the result. Each
 * tool is single-threaded, so two lanes run side by side: ESLint (type-aware, the longest) and the
 * rest in turn.
 */
async function staticChecks(): Promise<Counts> {
  const lanes = [
    [["node_modules/.bin/eslint", ".", "--max-warnings", "0"]],
    [
      ["node_modules/.bin/tsc", "--noEmit"],
      // The sandbox host's .mjs files (JSDoc-typed): the root config covers TypeScript only.
      ["node_modules/.bin/tsc", "-p", "lib/sandbox/host/tsconfig.json"],
      ["node_modules/.bin/prettier", "--check", "."],
    ],
  ];
  const results = await Promise.all(
    lanes.map(async (lane) => {
      const oks: boolean[] = [];
      for (const check of lane) oks.push(await runCheck(check));
      return oks;
    }),
  );
  const oks = results.flat();
  return { passed: oks.filter(Boolean).length, failed: oks.filter((ok) => !ok).length, skipped: 0 };
}

const TIERS: Tier[] = [
  { name: "static", run: staticChecks },
  vitest("unit"),
  vitest("db"),
  {
    name: "e2e",
    command: ["node_modules/.bin/playwright", "test"],
    report: "playwright.json",
    read: playwrightCounts,
  },
];

const wanted = process.argv.slice(2);
const tiers = wanted.length ? TIERS.filter((t) => wanted.includes(t.name)) : TIERS;
fs.mkdirSync(REPORTS, { recursive: true });
const total: Counts = { passed: 0, failed: 0, skipped: 0 };
const lines: string[] = [];
const failures: string[] = [];
for (const tier of tiers) {
  console.log(`\n=== ${tier.name} tests ===`);
  if ("run" in tier) {
    const counts = await tier.run();
    lines.push(`${tier.name}: ${counts.passed} passed, ${counts.failed} failed`);
    if (counts.failed) failures.push(`${tier.name}: ${counts.failed} check(s) failed, their output is above`);
    total.passed += counts.passed;
    total.failed += counts.failed;
    continue;
  }
  const reportPath = path.join(REPORTS, tier.report);
  fs.rmSync(reportPath, { force: true });
  const res = spawnSync(tier.command[0]!, tier.command.slice(1), {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", CI: process.env.CI ?? "" },
  });
  let counts: Report;
  try {
    counts = tier.read(JSON.parse(fs.readFileSync(reportPath, "utf8")));
    if (res.status !== 0 && counts.failed === 0) {
      counts.failed = 1; // crashed after writing the report
      counts.failures.push(`the runner exited with ${res.status} after writing its report`);
    }
  } catch {
    // no report: the runner itself failed
    counts = { passed: 0, failed: 1, skipped: 0, failures: ["the runner wrote no report"] };
  }
  failures.push(...counts.failures.map((f) => `${tier.name}: ${f}`));
  lines.push(`${tier.name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  total.passed += counts.passed;
  total.failed += counts.failed;
  total.skipped += counts.skipped;
}
const summary =
  `${total.passed} passed, ${total.failed} failed` + (total.skipped ? `, ${total.skipped} skipped` : "");
fs.writeFileSync(path.join(REPORTS, "summary.txt"), summary + "\n");
// Failures are listed again at the end: a long run's output is often read from its tail only.
if (failures.length) console.log(`\nFailed:\n${failures.map((f) => `  ${f}`).join("\n")}`);
console.log(`\n${lines.join("\n")}\n${summary}`);
process.exit(total.failed ? 1 : 0);
