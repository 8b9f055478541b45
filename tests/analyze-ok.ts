/**
 * Sandbox analysis that finds nothing to mark, for DB tests of saving code where the analysis is
 * not what is tested (the sandbox's own tests cover it).
 */
import { ok } from "../lib/core/result";
import type { AnalyzeDeps } from "../lib/environments/server/save-environment-version";
import type { Analysis } from "../lib/sandbox";

export const NO_MARKERS: Analysis = {
  syntaxErrors: [],
  classFound: true,
  classes: ["Counter"],
  publicMethods: [],
  forbiddenImports: [],
  hasAsync: false,
  tools: [],
};

export const analyzeOk: AnalyzeDeps = { analyze: () => Promise.resolve(ok(NO_MARKERS)) };
