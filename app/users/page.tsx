import type { Metadata } from "next";
import { getDb } from "@/lib/db";
import { currentUser } from "@/lib/auth/server/require-role";
import { findUsers } from "@/lib/auth/server/manage-users";
import { UserAdmin } from "@/components/auth/user-admin";
import { Card } from "@/components/ui/states";

export const metadata: Metadata = { title: "Users" };
export const dynamic = "force-dynamic";

/** Accounts (emails, roles) are for admins only; everyone else gets a refusal, not the list. */
export default async function UsersPage() {
  const me = await currentUser();
  if (me.role !== "ADMIN") {
    return (
      <div className="space-y-5">
        <h1 className="text-2xl font-semibold tracking-tight">Users</h1>
        <Card>
          <p role="alert" className="text-sm text-slate-600">
            Only admins can see and manage accounts; you are signed in as a {me.role.toLowerCase()}.
          </p>
        </Card>
      </div>
    );
  }
  const users = await findUsers(getDb());
  return (
    <div className="space-y-5">
      <h1 className="text-2xl font-semibold tracking-tight">Users</h1>
      <Card>
        <p className="text-sm text-slate-600">
          <b>Admins</b> manage users and everything else; <b>reviewers</b> edit code and decide on review
          items; <b>viewers</b> read only.
        </p>
      </Card>
      <UserAdmin
        canManage
        meId={me.id}
        users={users.map((u) => ({
          ...u,
          disabled: Boolean(u.disabledAt),
          createdAt: u.createdAt.toISOString(),
        }))}
      />
    </div>
  );
}
