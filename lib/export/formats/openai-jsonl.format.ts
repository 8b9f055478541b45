/** OpenAI chat fine-tuning JSONL: one row per SFT-passing trajectory (docs/exports.md). */
import { defineFormat } from "./format-spec";

export const openAiJsonlFormat = defineFormat({
  id: "OPENAI_JSONL",
  alias: "openai",
  label: "OpenAI chat fine-tuning JSONL",
  needs: { trajectories: true, sftRows: true },
  write: () => import("./openai-jsonl").then((m) => m.writeOpenAiJsonl),
});
