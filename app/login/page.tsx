import type { Metadata } from "next";
import { LoginForm } from "@/components/auth/login-form";
import { safeNextPath } from "@/lib/auth/auth.schema";
import { isLoginRequired } from "@/lib/auth/login-policy";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  return (
    <div className="mx-auto mt-10 max-w-sm">
      <h1 className="text-2xl font-semibold tracking-tight">Sign in</h1>
      <p className="mt-1 text-sm text-slate-500">
        {isLoginRequired()
          ? "This studio is reachable from the network, so every page needs an account."
          : "On localhost you already act as the local admin; sign in to act as yourself."}
      </p>
      <LoginForm next={safeNextPath(next)} />
    </div>
  );
}
