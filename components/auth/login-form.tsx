"use client";
import { useMutation } from "@tanstack/react-query";
import { mutations } from "@/components/data/mutations";
import { Button } from "@/components/ui/button";
import { InputField } from "@/components/ui/field";

export function LoginForm({ next }: { next: string }) {
  const login = useMutation({
    ...mutations.logIn(),
    // A full load: the nav bar and every cached read start over as the signed-in user.
    onSuccess: (answer) => window.location.assign(answer.next),
  });
  // Still pending while the next page loads.
  const pending = login.isPending || login.isSuccess;
  const error = login.error?.message ?? null;
  return (
    <form
      className="mt-6 space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
      onSubmit={(e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        login.mutate({ email: form.get("email"), password: form.get("password"), next });
      }}
    >
      <InputField
        label="Email"
        labelClassName="text-slate-700"
        name="email"
        type="email"
        autoComplete="username"
        required
        autoFocus
        controlSize="lg"
        className="mt-1 block w-full"
      />
      <InputField
        label="Password"
        labelClassName="text-slate-700"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        controlSize="lg"
        className="mt-1 block w-full"
      />
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
