/** LlamaFactory ShareGPT: one row per SFT-passing trajectory (docs/exports.md). */
import { defineFormat } from "./format-spec";

export const llamaFactoryFormat = defineFormat({
  id: "LLAMAFACTORY_SHAREGPT",
  alias: "llamafactory",
  label: "LlamaFactory ShareGPT",
  needs: { trajectories: true, sftRows: true },
  write: () => import("./llamafactory").then((m) => m.writeLlamaFactory),
});
