import Link from "next/link";

const LINKS = [
  { href: "/", label: "Dashboard" },
  { href: "/environments", label: "Environments" },
  { href: "/runs", label: "Runs" },
  { href: "/scenarios", label: "Scenarios" },
];

export function NavBar() {
  return (
    <header className="border-b border-slate-200 bg-white">
      <nav aria-label="Main" className="mx-auto flex max-w-7xl items-center gap-6 px-6 py-3 text-sm">
        <Link href="/" className="font-semibold tracking-tight text-indigo-700">
          EnvStudio
        </Link>
        {LINKS.map((link) => (
          <Link key={link.href} href={link.href} className="text-slate-600 hover:text-slate-900">
            {link.label}
          </Link>
        ))}
      </nav>
    </header>
  );
}
