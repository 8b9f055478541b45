/**
 * The import graph of lib/: one node per .ts/.tsx file, an edge per `import … from`,
 * `export … from` (type-only ones included) and `import("…")` that resolves to another lib/ file
 * (relative paths and the `@/` alias of tsconfig.json). Lazy imports count too: a module that loads
 * its own importer lazily is still a cycle, only a hidden one.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

const EXTENSIONS = [".ts", ".tsx", "/index.ts", "/index.tsx"];

export function listSourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === "generated" || entry.name === "node_modules" ? [] : listSourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** Module specifiers the file imports: declarations, re-exports and `import("…")` calls with a literal. */
export function importedSpecifiers(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  const specs: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      specs.push(node.moduleSpecifier.text);
    const arg =
      ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword
        ? node.arguments[0]
        : undefined;
    if (arg && ts.isStringLiteralLike(arg)) specs.push(arg.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specs;
}

function resolve(root: string, from: string, spec: string, known: Set<string>): string | null {
  const base = spec.startsWith("@/")
    ? path.join(root, spec.slice(2))
    : spec.startsWith(".")
      ? path.resolve(path.dirname(from), spec)
      : null;
  if (base === null) return null; // a package
  for (const candidate of [base, ...EXTENSIONS.map((ext) => base + ext)])
    if (known.has(candidate)) return candidate;
  return null;
}

/** file → the lib/ files it imports statically; paths relative to `root`. */
export function buildImportGraph(root: string, dir = "lib"): Map<string, string[]> {
  const files = listSourceFiles(path.join(root, dir));
  const known = new Set(files);
  const rel = (f: string) => path.relative(root, f);
  return new Map(
    files.map((f) => [
      rel(f),
      importedSpecifiers(f)
        .flatMap((spec) => resolve(root, f, spec, known) ?? [])
        .map(rel),
    ]),
  );
}

/** Strongly connected components with more than one file (or a file importing itself), by Tarjan's algorithm. */
export function findCycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return cycles;
}
