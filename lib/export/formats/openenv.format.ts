/** OpenEnv / TRL package: an installable environment server per environment (docs/exports.md). */
import { defineFormat } from "./format-spec";

export const openEnvFormat = defineFormat({
  id: "OPENENV_PACKAGE",
  alias: "openenv",
  label: "OpenEnv / TRL package",
  needs: { trajectories: false, sftRows: false },
  write: () => import("./openenv").then((m) => m.writeOpenEnv),
});
