"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { resetPasswordAction } from "@/app/users/actions";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/inputs";
import { unwrapAction } from "@/components/data/unwrap-action";

/** An admin sets a new password for one user (their sessions end); shown inline in the user table. */
export function ResetPassword({ userId, email }: { userId: string; email: string }) {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const reset = useMutation({
    mutationFn: (input: { userId: string; password: string }) => unwrapAction(resetPasswordAction(input)),
    onSuccess: () => {
      setMessage({ ok: true, text: `Password reset for ${email}.` });
      setPassword("");
      setOpen(false);
    },
    onError: (e) => setMessage({ ok: false, text: e.message }),
  });
  const pending = reset.isPending;
  const submit = () => reset.mutate({ userId, password });
  return (
    <div className="space-y-1">
      {open ? (
        <form
          className="flex gap-1"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <Input
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            minLength={10}
            required
            aria-label={`New password for ${email}`}
            placeholder="new password (10+ chars)"
            controlSize="xs"
            className="w-44"
          />
          <Button type="submit" disabled={pending} variant="primary" size="xs">
            Set password
          </Button>
        </form>
      ) : (
        <Button onClick={() => setOpen(true)} variant="ghost" size="xs">
          Reset password
        </Button>
      )}
      {message ? (
        <p
          role={message.ok ? "status" : "alert"}
          className={`text-xs ${message.ok ? "text-emerald-700" : "text-rose-700"}`}
        >
          {message.text}
        </p>
      ) : null}
    </div>
  );
}
