/** Hugging Face dataset folder: one row per scenario, with a dataset card (docs/exports.md). */
import { defineFormat } from "./format-spec";

export const hfDatasetFormat = defineFormat({
  id: "HF_DATASET",
  alias: "hf",
  label: "Hugging Face dataset folder",
  needs: { trajectories: false, sftRows: false },
  write: () => import("./hf-dataset").then((m) => m.writeHfDataset),
});
