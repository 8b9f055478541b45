import Link from "next/link";
import { StatusBadge } from "@/components/ui/badge";

type Row = {
  id: string;
  rolloutIndex: number;
  model: string;
  mode: string;
  status: string;
  stepCount: number;
  reward: number;
  sftPass: boolean | null;
};

export function TrajectoryTable({ trajectories }: { trajectories: Row[] }) {
  if (trajectories.length === 0) return <p className="text-sm text-slate-500">No rollouts yet.</p>;
  return (
    <table className="w-full text-left text-sm" data-testid="trajectories">
      <thead className="text-xs uppercase tracking-wide text-slate-500">
        <tr>
          <th className="py-1">Rollout</th>
          <th>Model</th>
          <th>Mode</th>
          <th>Status</th>
          <th>Steps</th>
          <th>Reward</th>
          <th>SFT</th>
        </tr>
      </thead>
      <tbody>
        {trajectories.map((t) => (
          <tr key={t.id} className="border-t border-slate-100">
            <td className="py-1">
              <Link href={`/trajectories/${t.id}`} className="text-indigo-700 hover:underline">
                #{t.rolloutIndex}
              </Link>
            </td>
            <td>{t.model}</td>
            <td>{t.mode.replace("_", "-")}</td>
            <td>
              <StatusBadge status={t.status} />
            </td>
            <td>{t.stepCount}</td>
            <td>{t.reward}</td>
            <td>{t.sftPass === null ? "—" : t.sftPass ? "pass" : "fail"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
