/**
 * Sandbox analysis → editor markers (Monaco's 1-based lines/columns). Pure, shared by the save
 * path (which refuses code with blocking errors) and the editor (which underlines them).
 */
export type CodeMarker = {
  severity: "error" | "warning";
  message: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
};

export type AnalysisLike = {
  syntaxErrors: { message: string; line: number; column: number; endLine?: number; endColumn?: number }[];
  classFound: boolean;
  forbiddenImports: { module: string; line: number }[];
  hasAsync: boolean;
};

export function analysisMarkers(analysis: AnalysisLike, className: string): CodeMarker[] {
  const markers: CodeMarker[] = analysis.syntaxErrors.map((e) => ({
    severity: "error",
    message: `SyntaxError: ${e.message}`,
    line: Math.max(1, e.line),
    column: Math.max(1, e.column),
    endLine: Math.max(1, e.endLine ?? e.line),
    endColumn: Math.max(e.endColumn ?? e.column + 1, e.column + 1),
  }));
  // A file that does not parse cannot be checked for structure; one error is enough.
  if (markers.length) return markers;
  if (!analysis.classFound) {
    markers.push({
      severity: "error",
      message: `class ${className} is not defined at the top level (the environment class name is fixed per environment)`,
      line: 1,
      column: 1,
      endLine: 1,
      endColumn: 2,
    });
  }
  for (const f of analysis.forbiddenImports) {
    markers.push({
      severity: "error",
      message: `import of '${f.module}' is not allowed in the sandbox`,
      line: f.line,
      column: 1,
      endLine: f.line,
      endColumn: 200,
    });
  }
  if (analysis.hasAsync)
    markers.push({
      severity: "warning",
      message: "async methods are not called as tools",
      line: 1,
      column: 1,
      endLine: 1,
      endColumn: 2,
    });
  return markers;
}

export const hasBlockingMarkers = (markers: CodeMarker[]) => markers.some((m) => m.severity === "error");
