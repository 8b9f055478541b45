"use client";
import { useMutation } from "@tanstack/react-query";
import { isApiError } from "@/lib/api/api-error";
import { mutations } from "@/components/data/mutations";
import { Button } from "@/components/ui/button";

/** Ends the session, then loads the sign-in page afresh (no cached read of the account survives). */
export function SignOutButton() {
  const logout = useMutation({
    ...mutations.logOut(),
    // The server answered, so the cookie is gone even if forgetting the session row failed (the row
    // then expires unused); only a call that never arrived leaves the browser signed in.
    onSettled: (_value, error) => {
      if (!error || isApiError(error)) window.location.assign("/login");
    },
  });
  return (
    <Button
      variant="ghost"
      disabled={logout.isPending || logout.isSuccess}
      title={logout.error?.message}
      onClick={() => logout.mutate()}
    >
      Sign out
    </Button>
  );
}
