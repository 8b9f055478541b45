"use client";
import { useState, useTransition } from "react";
import { loginAction } from "@/app/login/actions";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/inputs";

export function LoginForm({ next }: { next: string }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  return (
    <form
      className="mt-6 space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
      onSubmit={(e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        startTransition(async () => {
          // On success the action redirects; only failures come back.
          const result = await loginAction({
            email: form.get("email"),
            password: form.get("password"),
            next,
          });
          if (!result.ok) setError(result.error.message);
        });
      }}
    >
      <Field label="Email" labelClassName="text-slate-700">
        {(control) => (
          <Input
            {...control}
            name="email"
            type="email"
            autoComplete="username"
            required
            autoFocus
            controlSize="lg"
            className="mt-1 block w-full"
          />
        )}
      </Field>
      <Field label="Password" labelClassName="text-slate-700">
        {(control) => (
          <Input
            {...control}
            name="password"
            type="password"
            autoComplete="current-password"
            required
            controlSize="lg"
            className="mt-1 block w-full"
          />
        )}
      </Field>
      {error ? (
        <p role="alert" className="text-sm text-rose-700">
          {error}
        </p>
      ) : null}
      <Button type="submit" disabled={pending} variant="primary" size="lg" className="w-full">
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
