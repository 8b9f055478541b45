/** verl agentic multi-turn RL: parquet rows, a tool config and the reward function (docs/exports.md). */
import { defineFormat } from "./format-spec";

export const verlFormat = defineFormat({
  id: "VERL_PARQUET",
  alias: "verl",
  label: "verl agentic RL parquet",
  needs: { trajectories: false, sftRows: false },
  write: () => import("./verl").then((m) => m.writeVerl),
});
