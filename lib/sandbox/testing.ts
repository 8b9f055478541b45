/**
 * NOT A SANDBOX. The same harness in a plain python3 subprocess, for the benchmark baseline and
 * the differential test only. Deliberately absent from index.ts and from env configuration.
 */
import { type SandboxOptions, resolveOptions } from "./options";
import { createProcessBackend } from "./process-backend";
import { type SandboxRunner, createRunnerWithBackend } from "./runner";

export function createUnsandboxedNativeRunner(options: Partial<SandboxOptions> = {}): SandboxRunner {
  const resolved = resolveOptions({ ...options, backend: "pyodide" });
  return createRunnerWithBackend(createProcessBackend(resolved, "native"), resolved);
}
