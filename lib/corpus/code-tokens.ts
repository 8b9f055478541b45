/**
 * Code normalisation for near-duplicate detection: two environments written for different topics
 * by the same template differ in comments, docstrings and literal values, not in structure and
 * names. Tokens keep identifiers and keywords (lower-cased) and operators; comments are dropped,
 * every string literal becomes `STR` and every number `NUM`, so a copy with reworded docstrings
 * or other sample data still shingles the same.
 */
const TOKEN =
  /("""[\s\S]*?"""|'''[\s\S]*?'''|[rbfu]{0,2}"(?:\\.|[^"\\\n])*"|[rbfu]{0,2}'(?:\\.|[^'\\\n])*'|#[^\n]*|[A-Za-z_][A-Za-z0-9_]*|\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?|==|!=|<=|>=|->|\*\*|\/\/|[+\-*/%<>=()[\]{}:.,@])/g;

const STRING_START = /^[rbfu]{0,2}["']/i;

/** The normalised token stream of Python source (see the module comment for what is kept). */
export function normaliseCodeTokens(source: string): string[] {
  const out: string[] = [];
  for (const match of source.matchAll(TOKEN)) {
    const token = match[0];
    if (token.startsWith("#")) continue;
    if (token.startsWith('"""') || token.startsWith("'''") || STRING_START.test(token)) out.push("STR");
    else if (/^\d/.test(token)) out.push("NUM");
    else out.push(token.toLowerCase());
  }
  return out;
}

/**
 * Names every environment class uses (Python keywords, common builtins, the EnvScaler class
 * protocol). A shingle made only of these, literals and operators is boilerplate
 * (`return { STR : false , STR`): every generated environment has it, so it says nothing about
 * two environments being copies, and counting it would make every pair look somewhat alike.
 */
const COMMON = new Set(
  (
    "and as assert async await break class continue def del elif else except false finally for from global if " +
    "import in is lambda none nonlocal not or pass raise return true try while with yield self cls " +
    "__init__ init_config super dict list str int float bool len range isinstance get items keys values " +
    "append pop copy sorted sum min max any all enumerate zip print type object optional any typing"
  ).split(" "),
);
const isInformative = (token: string) => /^[a-z_][a-z0-9_]*$/.test(token) && !COMMON.has(token);

/**
 * Contiguous k-token shingles that name at least one identifier of the environment's own (see
 * COMMON); a stream shorter than k is one shingle.
 */
export function tokenShingles(tokens: readonly string[], k: number): string[] {
  if (tokens.length === 0) return [];
  if (tokens.length <= k) return [tokens.join(" ")];
  const out = new Set<string>();
  for (let i = 0; i + k <= tokens.length; i += 1) {
    const window = tokens.slice(i, i + k);
    if (window.some(isInformative)) out.add(window.join(" "));
  }
  return [...out];
}
