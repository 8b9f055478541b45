/**
 * The follow loop gives up on an unreachable database only after the configured time, with one
 * clear message and exit code 3, having said on stderr each time it retried.
 */
import { describe, expect, it } from "vitest";
import { createDb } from "@/lib/db";
import { freePort } from "@/tests/free-port";
import { DB_GAVE_UP_EXIT, followRun } from "./follow-run";

describe("envstudio pipeline run: following a run while the database is unreachable", () => {
  it("retries with backoff, says so, and gives up with a clear message after --db-wait", async () => {
    const port = await freePort(); // nothing listens there
    const db = createDb(`postgresql://nobody@127.0.0.1:${port}/envstudio`, 1);
    const err: string[] = [];
    const waits: number[] = [];
    let clock = 0; // the loop's time advances with its sleeps only
    try {
      const code = await followRun(
        db,
        "run-1",
        { out: () => {}, err: (l) => err.push(l) },
        {
          pollMs: 100,
          dbWaitMs: 2_000,
          now: () => clock,
          sleep: (ms) => (waits.push(ms), (clock += ms), Promise.resolve()),
        },
      );
      expect(code).toBe(DB_GAVE_UP_EXIT);
    } finally {
      await db.$disconnect();
    }
    expect(waits.reduce((a, b) => a + b, 0)).toBe(2_000); // the last wait is cut to the deadline
    expect(waits.slice(0, 4)).toEqual([100, 200, 400, 800]);
    expect(err).toHaveLength(waits.length + 1); // one line per retry, then the verdict
    expect(
      err
        .slice(0, -1)
        .every((l) => /^database error while following the run \(.+\); retrying in \d+\.\d s$/.test(l)),
    ).toBe(true);
    expect(err.at(-1)).toMatch(
      /the database has been unreachable for \d+ s .*giving up following run run-1\. The run itself goes on in the workers: follow it in the studio at \/runs\/run-1\./,
    );
  });
});
