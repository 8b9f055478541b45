import type { Metadata } from "next";
import { headers } from "next/headers";
import { LoginForm } from "@/components/auth/login-form";
import { safeNextPath } from "@/lib/auth/auth.schema";
import { connectionOf } from "@/lib/auth/client-address";
import { isAnonymousLocalAdmin } from "@/lib/auth/login-policy";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  const localAdmin = isAnonymousLocalAdmin(connectionOf(await headers()));
  return (
    <div className="mx-auto mt-10 max-w-sm">
      <h1 className="text-2xl font-semibold tracking-tight">Sign in</h1>
      <p className="mt-1 text-sm text-slate-500">
        {localAdmin
          ? "On localhost you already act as the local admin; sign in to act as yourself."
          : "This studio is reachable from the network, so every page needs an account."}
      </p>
      <LoginForm next={safeNextPath(next)} />
    </div>
  );
}
