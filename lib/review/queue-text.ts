/** How queue items read (pure): reasons as sentences, titles cut at a word boundary. */
import { ProofReasonSchema } from "../scenarios/scenario.schema";

const sentence = (text: string) => {
  const t = text.trim();
  if (!t) return t;
  const capital = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
};

/** A stored proof reason ({code, position, message}) or a plain string, as one sentence. */
export function reasonSentence(reason: unknown): string {
  if (typeof reason === "string") return sentence(reason);
  const parsed = ProofReasonSchema.safeParse(reason);
  if (parsed.success) return sentence(parsed.data.message);
  const message =
    typeof reason === "object" && reason !== null && "message" in reason ? String(reason.message) : "";
  return message ? sentence(message) : "The proof reported a problem without a description.";
}

/** At most `max` characters, cut at the last space before the limit (never mid-word), with "…". */
export function shortTitle(text: string, max = 160): string {
  const t = text.replace(/\s+/g, " ").trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, "")}…`;
}
