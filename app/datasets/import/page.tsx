import type { Metadata } from "next";
import Link from "next/link";
import { roleAtLeast } from "@/lib/auth/roles";
import { currentUser } from "@/lib/auth/server/require-role";
import { ImportForm } from "@/components/datasets/import-form";
import { Card } from "@/components/ui/states";

export const metadata: Metadata = { title: "Import" };

export const dynamic = "force-dynamic";

export default async function ImportPage() {
  const canImport = roleAtLeast((await currentUser()).role, "REVIEWER");
  return (
    <div className="space-y-4">
      <div className="flex items-baseline gap-3">
        <Link href="/datasets" className="text-sm text-indigo-700 underline">
          Datasets
        </Link>
        <h1 className="text-2xl font-semibold tracking-tight">Import</h1>
      </div>
      <Card title="Upload">
        <p className="mb-3 text-sm text-slate-600">
          Everything in one upload is written in one transaction: a file that is not JSON, has the wrong
          shape, holds Python that does not parse or is too large is reported with its location and nothing is
          written.
        </p>
        {canImport ? (
          <ImportForm />
        ) : (
          <p className="text-sm text-slate-500">Importing needs the reviewer role.</p>
        )}
      </Card>
    </div>
  );
}
