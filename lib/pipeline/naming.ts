/**
 * Human names for what a run creates. An environment is named from its topic's label (a typed
 * idea's first line, or the summary a model inferred): the leading article goes, a slug-like label
 * (`library_lending-desk`) becomes words, the first letter is capitalised and a long label is cut
 * at a word. A run without a name is named after its first environment or its task file, never
 * "1 idea". Domains are short lowercase labels; an empty one is "general".
 */

const MAX_NAME = 60;
const ARTICLE = /^(?:an?|the)\s+/i;
const SLUGGY = /^[\w-]+$/;

/** Cuts at the last word boundary within `max` characters (no ellipsis when it fits). */
function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max + 1).replace(/\s+\S*$/, "");
  return `${(cut.length >= max / 2 ? cut : text.slice(0, max)).replace(/[\s,;:.-]+$/, "")}…`;
}

export function environmentName(label: string): string {
  let text = (label.split(/\r?\n/).find((l) => l.trim()) ?? "").trim();
  if (SLUGGY.test(text) && /[-_]/.test(text)) text = text.replace(/[-_]+/g, " ");
  // A camel-cased class-like label (LibraryLendingDesk) reads as words too.
  if (/^[A-Z][a-z]+(?:[A-Z][a-z0-9]+)+$/.test(text)) text = text.replace(/([a-z0-9])([A-Z])/g, "$1 $2");
  text = text
    .replace(/\s+/g, " ")
    .replace(ARTICLE, "")
    .replace(/[\s.:;,!]+$/, "");
  if (!text) return "Untitled environment";
  return cutAtWord(text.charAt(0).toUpperCase() + text.slice(1), MAX_NAME);
}

/** A run's default name: its environment for one idea, the first and a count for more, or its task file. */
export function runName(
  input: { kind: "ideas"; ideas: string[] } | { kind: "tasks"; tasks: unknown[]; fileName?: string | null },
): string {
  if (input.kind === "ideas") {
    const first = environmentName(input.ideas[0] ?? "");
    return input.ideas.length <= 1 ? first : `${first} and ${input.ideas.length - 1} more`;
  }
  const n = input.tasks.length;
  return `${n} task${n === 1 ? "" : "s"}${input.fileName ? ` from ${input.fileName}` : ""}`;
}

/** A domain label as the model gave it, normalised: lowercase words, at most 40 characters. */
export function domainLabel(raw: string | null | undefined): string {
  const text = (raw ?? "")
    .toLowerCase()
    .replace(/[_]+/g, " ")
    .replace(/[^a-z0-9 &/-]+/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return text ? text.slice(0, 40).trim() : "general";
}
