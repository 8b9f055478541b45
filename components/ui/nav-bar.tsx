"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { Button } from "./button";
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

const isCurrent = (href: string, pathname: string) =>
  href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);

/**
 * The main navigation. From the md breakpoint up every link sits in one row; below it the links,
 * the theme toggle and the account collapse behind a Menu button (Enter or Space opens it, Escape
 * closes it and returns focus to the button; following a link closes it). `account` is rendered
 * on the right (signed-in user, sign in/out); the layout supplies it.
 */
export function NavBar({ account, isAdmin = false }: { account?: ReactNode; isAdmin?: boolean }) {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  // A followed link closes the menu (the layout, and this bar, stay mounted across pages).
  const [shownFor, setShownFor] = useState(pathname);
  if (shownFor !== pathname) {
    setShownFor(pathname);
    setOpen(false);
  }
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      toggle.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  return (
    <header className="border-b border-slate-200 bg-white">
      <nav
        aria-label="Main"
        className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3 text-sm md:flex-nowrap md:px-6"
      >
        <Link href="/" className="font-semibold tracking-tight text-indigo-700">
          EnvStudio
        </Link>
        <Button
          ref={toggle}
          variant="secondary"
          size="sm"
          className="ml-auto md:hidden"
          aria-expanded={open}
          aria-controls="main-nav-menu"
          onClick={() => setOpen((o) => !o)}
        >
          {open ? "Close menu" : "Menu"}
        </Button>
        <div
          id="main-nav-menu"
          data-testid="main-nav-menu"
          className={`${open ? "flex" : "hidden"} w-full flex-col gap-3 border-t border-slate-100 pt-2 md:flex md:w-auto md:flex-1 md:flex-row md:items-center md:gap-6 md:border-0 md:pt-0`}
        >
          <ul className="flex flex-col gap-1 md:flex-row md:flex-wrap md:gap-x-6 md:gap-y-1">
            {LINKS.filter((link) => isAdmin || !link.adminOnly).map((link) => {
              const current = isCurrent(link.href, pathname);
              return (
                <li key={link.href}>
                  <Link
                    href={link.href}
                    aria-current={current ? "page" : undefined}
                    className={`block py-1 md:py-0 ${current ? "font-medium text-slate-900" : "text-slate-600 hover:text-slate-900"}`}
                  >
                    {link.label}
                  </Link>
                </li>
              );
            })}
          </ul>
          <div className="flex flex-wrap items-center gap-3 text-slate-600 md:ml-auto">
            <ThemeToggle />
            {account}
          </div>
        </div>
      </nav>
    </header>
  );
}
