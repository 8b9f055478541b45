/** Readiness of each real format descriptor for the dataset versions a curator meets. */
import { describe, expect, it } from "vitest";
import { formatReadiness } from "./format-readiness";
import { FORMATS } from "./formats/registry";

const fresh = { version: 2, scenarios: 9, sftTrajectories: 0 };
const rolledOut = { version: 3, scenarios: 9, sftTrajectories: 4 };

describe("format readiness", () => {
  it("without trajectories: the SFT formats cannot work and say to run rollouts", () => {
    for (const id of ["OPENAI_JSONL", "LLAMAFACTORY_SHAREGPT"] as const) {
      const r = formatReadiness(FORMATS[id], fresh);
      expect(r.ready).toBe(false);
      expect(r.fix).toBe("RUN_ROLLOUTS");
      expect(r.note).toContain(`Needs agent trajectories: ${FORMATS[id].label} is built from rollouts`);
      expect(r.note).toContain("dataset version 2 has none");
    }
  });

  it("without trajectories: EnvScaler works, and says it writes no sft_traj files", () => {
    expect(formatReadiness(FORMATS.ENVSCALER_JSON, fresh)).toEqual({
      ready: true,
      note: "Dataset version 2 has no SFT trajectories yet: the export holds its environments and scenarios, and no sft_traj files.",
      fix: "RUN_ROLLOUTS",
    });
  });

  it("without trajectories: the RL formats need none", () => {
    for (const id of ["VERL_PARQUET", "OPENENV_PACKAGE", "HF_DATASET"] as const)
      expect(formatReadiness(FORMATS[id], fresh)).toEqual({ ready: true, note: null, fix: null });
  });

  it("with trajectories every format is ready with nothing to say", () => {
    for (const format of Object.values(FORMATS))
      expect(formatReadiness(format, rolledOut)).toEqual({ ready: true, note: null, fix: null });
  });

  it("a version with no scenarios cannot export in any format, and no action is offered", () => {
    for (const format of Object.values(FORMATS)) {
      const r = formatReadiness(format, { version: 1, scenarios: 0, sftTrajectories: 0 });
      expect(r).toEqual({
        ready: false,
        note: "Dataset version 1 has no scenarios: nothing to export.",
        fix: null,
      });
    }
  });
});
