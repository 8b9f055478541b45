import Link from "next/link";
import type { SessionUser } from "@/lib/auth/auth.schema";
import { SignOutButton } from "./sign-out-button";

/** Right side of the nav bar. `signedIn` is false for the implicit local admin on localhost. */
export function AccountMenu({ user, signedIn }: { user: SessionUser | null; signedIn: boolean }) {
  if (!user)
    return (
      <Link href="/login" className="text-indigo-700 hover:underline">
        Sign in
      </Link>
    );
  return (
    <>
      <span data-testid="current-user">
        {user.name}{" "}
        <span className="text-xs text-slate-400">
          ({user.role.toLowerCase()}
          {signedIn ? "" : ", local"})
        </span>
      </span>
      {signedIn ? (
        <SignOutButton />
      ) : (
        <Link href="/login" className="text-indigo-700 hover:underline">
          Sign in
        </Link>
      )}
    </>
  );
}
