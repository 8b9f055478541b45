/**
 * What an export refuses before it writes a byte: an environment whose class name, tool names or
 * parameter names are not Python identifiers, or whose tools are not tool schemas. Tool schemas
 * are the analysis of the class code (docs/exports.md); a stored version from before imports were
 * checked could still hold a file's own list, and a name from there would be written as code by
 * the OpenEnv/TRL and verl exports. The formats quote every other string themselves.
 */
import { z } from "zod";
import { issuePath } from "../core/zod-issues";
import type { ExportEnvironment } from "./export.schema";
import { pyIdentifierProblem } from "./python-source";

const ExportToolSchema = z.object({
  type: z.literal("function"),
  function: z.object({
    name: z.string(),
    description: z.string(),
    parameters: z.looseObject({
      type: z.literal("object"),
      properties: z.record(z.string(), z.record(z.string(), z.unknown())),
      required: z.array(z.string()).optional(),
    }),
  }),
});

/** An export that cannot be written from this input; not retryable (the stored rows must change). */
export class ExportInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ExportInputError";
  }
}

/** Every problem of one environment, each as `field: problem`. */
export function environmentProblems(env: ExportEnvironment): string[] {
  const problems: string[] = [];
  const className = pyIdentifierProblem(env.className);
  if (className) problems.push(`env_class_name: ${className}`);
  const tools = z.array(ExportToolSchema).safeParse(env.tools);
  if (!tools.success) {
    const issue = tools.error.issues[0];
    return [...problems, `tools.${issue ? issuePath(issue) : ""}: ${issue?.message ?? "not tool schemas"}`];
  }
  const seen = new Set<string>();
  for (const [i, tool] of tools.data.entries()) {
    const at = `tools.${i}.function`;
    const name = pyIdentifierProblem(tool.function.name);
    if (name) problems.push(`${at}.name: ${name}`);
    else if (seen.has(tool.function.name))
      problems.push(`${at}.name: "${tool.function.name}" is listed twice`);
    seen.add(tool.function.name);
    for (const param of Object.keys(tool.function.parameters.properties)) {
      const problem = pyIdentifierProblem(param);
      if (problem) problems.push(`${at}.parameters.properties: ${problem}`);
    }
  }
  return problems;
}

/** Throws ExportInputError naming the environment, its version and the field of the first problems. */
export function checkExportEnvironments(envs: readonly ExportEnvironment[]): void {
  for (const env of envs) {
    const problems = environmentProblems(env);
    if (problems.length)
      throw new ExportInputError(
        `environment ${env.envId} version ${env.version} cannot be exported: ${problems.slice(0, 3).join("; ")}` +
          (problems.length > 3 ? ` (and ${problems.length - 3} more)` : ""),
      );
  }
}
