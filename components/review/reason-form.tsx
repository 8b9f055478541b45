"use client";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/inputs";

/** The inline reason prompt of the queue: a rejection, or an accept that needs an override reason. */
export function ReasonForm({
  mode,
  risks,
  pending,
  onSubmit,
  onCancel,
}: {
  mode: "reject" | "accept";
  risks: string[];
  pending: boolean;
  onSubmit: (reason: string) => void;
  onCancel: () => void;
}) {
  const [reason, setReason] = useState("");
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => ref.current?.focus(), [mode]);
  const label = mode === "reject" ? "Rejection reason" : "Override reason";
  return (
    <form
      className="space-y-1"
      onSubmit={(e) => {
        e.preventDefault();
        if (reason.trim()) onSubmit(reason.trim());
      }}
    >
      {mode === "accept" ? (
        <p className="text-sm text-amber-800" data-testid="accept-risks">
          Accepting needs a written reason: {risks.join("; ")}.
        </p>
      ) : null}
      <div className="flex gap-2">
        <Input
          ref={ref}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          aria-label={label}
          placeholder={`${mode === "reject" ? "Why reject?" : "Why accept anyway?"} (Enter to confirm, Esc to cancel)`}
          onKeyDown={(e) => {
            if (e.key === "Escape") onCancel();
          }}
          tone={mode === "reject" ? "danger" : "warning"}
          className="flex-1"
        />
        <Button
          type="submit"
          variant={mode === "reject" ? "danger" : "warning"}
          disabled={pending || !reason.trim()}
        >
          {mode === "reject" ? "Reject" : "Accept with override"}
        </Button>
      </div>
    </form>
  );
}
