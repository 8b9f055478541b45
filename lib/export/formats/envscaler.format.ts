/** EnvScaler JSON: the environments, scenarios and their SFT-passing trajectories (docs/exports.md). */
import { defineFormat } from "./format-spec";

export const envscalerFormat = defineFormat({
  id: "ENVSCALER_JSON",
  alias: "envscaler",
  label: "EnvScaler JSON",
  // Its rows are scenarios; trajectories are written beside them.
  needs: { trajectories: true, sftRows: false },
  write: () => import("./envscaler").then((m) => m.writeEnvScaler),
});
