import Link from "next/link";
import type { ReactNode } from "react";
import { ThemeToggle } from "./theme-toggle";

const LINKS: { href: string; label: string; adminOnly?: boolean }[] = [
  { href: "/", label: "Dashboard" },
  { href: "/environments", label: "Environments" },
  { href: "/runs", label: "Runs" },
  { href: "/scenarios", label: "Scenarios" },
  { href: "/review", label: "Review queue" },
  { href: "/users", label: "Users", adminOnly: true },
  { href: "/datasets", label: "Datasets" },
  { href: "/corpus", label: "Corpus map" },
];

/** `account` is rendered on the right (signed-in user, sign in/out); the layout supplies it. */
export function NavBar({ account, isAdmin = false }: { account?: ReactNode; isAdmin?: boolean }) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <nav aria-label="Main" className="mx-auto flex max-w-7xl items-center gap-6 px-6 py-3 text-sm">
        <Link href="/" className="font-semibold tracking-tight text-indigo-700">
          EnvStudio
        </Link>
        {LINKS.filter((link) => isAdmin || !link.adminOnly).map((link) => (
          <Link key={link.href} href={link.href} className="text-slate-600 hover:text-slate-900">
            {link.label}
          </Link>
        ))}
        <div className="ml-auto flex items-center gap-3 text-slate-600">
          <ThemeToggle />
          {account}
        </div>
      </nav>
    </header>
  );
}
