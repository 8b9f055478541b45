import { type Ref, useId } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/inputs";

/** Why a save cannot go now, or null when it can: the button's tooltip and what Ctrl/Cmd+S answers. */
export function saveBlockedReason({
  saving,
  isDirty,
  message,
}: {
  saving: boolean;
  isDirty: boolean;
  message: string;
}): string | null {
  if (saving) return "Saving…";
  if (!isDirty) return "Nothing to save: the code is unchanged.";
  if (!message.trim()) return "Write a version message first: what did you change and why?";
  return null;
}

/** The version message and the save button; a save needs a change and a message saying why. */
export function SaveVersionForm({
  message,
  onMessage,
  onSave,
  saving,
  isDirty,
  messageRef,
}: {
  message: string;
  onMessage: (message: string) => void;
  onSave: () => void;
  saving: boolean;
  isDirty: boolean;
  messageRef?: Ref<HTMLInputElement>;
}) {
  const blocked = saveBlockedReason({ saving, isDirty, message });
  const hintId = useId();
  return (
    <form
      className="flex flex-wrap items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        onSave();
      }}
    >
      <Input
        ref={messageRef}
        value={message}
        onChange={(e) => onMessage(e.target.value)}
        placeholder="What did you change and why?"
        aria-label="Version message"
        className="min-w-80 flex-1"
      />
      <Button
        type="submit"
        variant="primary"
        size="md"
        disabled={blocked !== null}
        disabledReason={blocked ?? undefined}
        title="Save a new version (Ctrl+S / ⌘S)"
        aria-describedby={hintId}
      >
        {saving ? "Saving…" : "Save new version"}
      </Button>
      <span id={hintId} className="w-full text-xs text-slate-500" data-testid="save-hint">
        {blocked && !saving ? blocked : "Ctrl+S (⌘S) saves."}
      </span>
    </form>
  );
}
