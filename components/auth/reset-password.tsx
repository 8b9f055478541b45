"use client";
import { useState, useTransition } from "react";
import { resetPasswordAction } from "@/app/users/actions";
import { Button } from "@/components/ui/button";

/** An admin sets a new password for one user (their sessions end); shown inline in the user table. */
export function ResetPassword({ userId, email }: { userId: string; email: string }) {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, startTransition] = useTransition();
  const submit = () =>
    startTransition(async () => {
      const result = await resetPasswordAction({ userId, password });
      setMessage(
        result.ok
          ? { ok: true, text: `Password reset for ${email}.` }
          : { ok: false, text: result.error.message },
      );
      if (result.ok) {
        setPassword("");
        setOpen(false);
      }
    });
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
          <input
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            minLength={10}
            required
            aria-label={`New password for ${email}`}
            placeholder="new password (10+ chars)"
            className="w-44 rounded border border-slate-300 px-2 py-0.5 text-xs"
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
