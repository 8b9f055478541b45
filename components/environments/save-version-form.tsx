import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/inputs";

/** The version message and the save button; a save needs a change and a message saying why. */
export function SaveVersionForm({
  message,
  onMessage,
  onSave,
  saving,
  isDirty,
}: {
  message: string;
  onMessage: (message: string) => void;
  onSave: () => void;
  saving: boolean;
  isDirty: boolean;
}) {
  return (
    <form
      className="flex flex-wrap items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        onSave();
      }}
    >
      <Input
        value={message}
        onChange={(e) => onMessage(e.target.value)}
        placeholder="What did you change and why?"
        aria-label="Version message"
        className="min-w-80 flex-1"
      />
      <Button type="submit" variant="primary" size="md" disabled={saving || !isDirty || !message.trim()}>
        {saving ? "Saving…" : "Save new version"}
      </Button>
    </form>
  );
}
