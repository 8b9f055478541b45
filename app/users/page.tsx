import type { Metadata } from "next";
import { getDb } from "@/lib/db";
import { currentUser } from "@/lib/auth/server/require-role";
import { findUsers } from "@/lib/auth/server/manage-users";
import { UserAdmin } from "@/components/auth/user-admin";
import { Card } from "@/components/ui/states";

export const metadata: Metadata = { title: "Users" };
export const dynamic = "force-dynamic";

export default async function UsersPage() {
  const me = await currentUser();
  const users = await findUsers(getDb());
  return (
    <div className="space-y-5">
      <h1 className="text-2xl font-semibold tracking-tight">Users</h1>
      <Card>
        <p className="text-sm text-slate-600">
          <b>Admins</b> manage users and everything else; <b>reviewers</b> edit code and decide on review items; <b>viewers</b> read only.
          {me.role !== "ADMIN" ? " Only admins can change accounts." : ""}
        </p>
      </Card>
      <UserAdmin
        canManage={me.role === "ADMIN"}
        meId={me.id}
        users={users.map((u) => ({ ...u, disabled: Boolean(u.disabledAt), createdAt: u.createdAt.toISOString() }))}
      />
    </div>
  );
}
