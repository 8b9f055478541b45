/**
 * The character escaping every generated literal shares (Python, YAML and TOML strings): the
 * result is printable ASCII, so no character of the value (a quote, a backslash, a newline, NUL,
 * U+2028, U+0085) can end the literal, the line or the file it sits in. Python, YAML (PyYAML) and
 * TOML all read `\\`, `\"`, `\n`, `\r`, `\t`, `\uXXXX` and `\UXXXXXXXX` the same way; only the
 * spelling of code points below 0x100 differs (`\xHH` where the language has it).
 */

const hex = (code: number, width: number) => code.toString(16).padStart(width, "0");
const NAMED: Record<string, string> = { "\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** `hasHexEscape`: the language reads `\xHH` (Python, YAML); TOML does not, so it gets `\u00HH`. */
export function escapeAscii(text: string, hasHexEscape: boolean): string {
  let out = "";
  // for…of walks code points: a surrogate pair becomes one \U escape, a lone surrogate a \u one.
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    const named = NAMED[ch];
    if (named) out += named;
    else if (code >= 0x20 && code < 0x7f) out += ch;
    else if (code < 0x100 && hasHexEscape) out += `\\x${hex(code, 2)}`;
    else if (code < 0x10000) out += `\\u${hex(code, 4)}`;
    else out += `\\U${hex(code, 8)}`;
  }
  return out;
}

/** An unpaired UTF-16 surrogate: no UTF-8 file (TOML) can hold one. */
export const hasLoneSurrogate = (text: string): boolean =>
  /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
