"use client";
import { useMutation } from "@tanstack/react-query";
import { createUserAction, updateUserAction } from "@/app/users/actions";
import { ResetPassword } from "./reset-password";
import { ROLES, type RoleName } from "@/lib/auth/roles";
import { Card } from "@/components/ui/states";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/inputs";
import type { ActionResult } from "@/lib/core/result";
import { unwrapAction } from "@/components/data/unwrap-action";
import { usePageRefresh } from "@/components/data/use-page-refresh";

type Row = { id: string; email: string; name: string; role: RoleName; disabled: boolean; createdAt: string };

export function UserAdmin({
  users,
  canManage,
  meId,
}: {
  users: Row[];
  canManage: boolean;
  meId: string | null;
}) {
  const page = usePageRefresh();
  // The account table is server-rendered: a change shows after a refresh.
  const change = useMutation({
    mutationFn: ({ send }: { send: () => Promise<ActionResult<unknown>>; after?: () => void }) =>
      unwrapAction(send()),
    onSuccess: (_value, { after }) => {
      after?.();
      page.refresh();
    },
  });
  const pending = change.isPending || page.isRefreshing;
  const error = change.error?.message ?? null;
  const run = (send: () => Promise<ActionResult<unknown>>, after?: () => void) =>
    change.mutate({ send, after });
  return (
    <div className="space-y-4">
      {error ? (
        <p role="alert" className="rounded border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800">
          {error}
        </p>
      ) : null}
      <Card title={`Accounts (${users.length})`}>
        <table className="w-full text-left text-sm" data-testid="user-table">
          <thead className="text-xs uppercase text-slate-500">
            <tr>
              <th className="py-1">Email</th>
              <th>Name</th>
              <th>Role</th>
              <th>Status</th>
              {canManage ? <th>Password</th> : null}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {users.map((u) => (
              <tr key={u.id} data-testid="user-row">
                <td className="py-2">
                  {u.email}
                  {u.id === meId ? <span className="ml-1 text-xs text-slate-400">(you)</span> : null}
                </td>
                <td>{u.name}</td>
                <td>
                  <Select
                    aria-label={`Role of ${u.email}`}
                    disabled={!canManage || pending}
                    value={u.role}
                    controlSize="xs"
                    onChange={(e) => run(() => updateUserAction({ userId: u.id, role: e.target.value }))}
                  >
                    <RoleOptions />
                  </Select>
                </td>
                <td>
                  <Button
                    disabled={!canManage || pending}
                    variant="ghost"
                    onClick={() => run(() => updateUserAction({ userId: u.id, disabled: !u.disabled }))}
                  >
                    {u.disabled ? "Disabled · enable" : "Active · disable"}
                  </Button>
                </td>
                {canManage ? (
                  <td>
                    <ResetPassword userId={u.id} email={u.email} />
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      {canManage ? (
        <Card title="New account">
          <form
            className="grid gap-3 sm:grid-cols-5"
            onSubmit={(e) => {
              e.preventDefault();
              const form = e.currentTarget;
              const data = Object.fromEntries(new FormData(form));
              run(
                () => createUserAction(data),
                () => form.reset(),
              );
            }}
          >
            <Input name="email" type="email" required placeholder="email" aria-label="New user email" />
            <Input name="name" required placeholder="name" aria-label="New user name" />
            <Select name="role" aria-label="New user role" defaultValue="REVIEWER">
              <RoleOptions />
            </Select>
            <Input
              name="password"
              type="password"
              required
              minLength={10}
              placeholder="password (10+ chars)"
              aria-label="New user password"
            />
            <Button type="submit" disabled={pending} variant="primary" size="sm">
              Create
            </Button>
          </form>
        </Card>
      ) : null}
    </div>
  );
}

const RoleOptions = () =>
  ROLES.map((r) => (
    <option key={r} value={r}>
      {r.toLowerCase()}
    </option>
  ));
