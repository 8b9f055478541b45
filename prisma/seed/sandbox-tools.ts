/** Tool schemas for seeding, extracted by the sandbox runtime (a separate, hardened process). */
import type { SandboxRunner } from "../../lib/sandbox";
import type { ToolsFor } from "./seed-samples";

/** The tools of a sample as `runner` extracts them (tests pass the runner they already hold). */
export const toolsExtractedBy =
  (runner: Pick<SandboxRunner, "extractTools">): ToolsFor =>
  async (sample) => {
    const result = await runner.extractTools(sample.source, sample.meta.env_class_name);
    if (!result.ok)
      throw new Error(`could not extract the tools of sample ${sample.slug}: ${result.error.message}`);
    return result.value;
  };

export async function sandboxToolsFor(): Promise<{ toolsFor: ToolsFor; close: () => Promise<void> }> {
  const { createSandboxRunner } = await import("../../lib/sandbox");
  const runner = createSandboxRunner();
  return { toolsFor: toolsExtractedBy(runner), close: () => runner.close() };
}
