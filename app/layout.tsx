import type { Metadata } from "next";
import type { ReactNode } from "react";
import { NavBar } from "@/components/ui/nav-bar";
import { Providers } from "./providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "EnvStudio", template: "%s · EnvStudio" },
  description: "Synthesize, review and export tool-interactive training environments.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 font-sans text-slate-900 antialiased">
        <NavBar />
        <Providers>
          <main className="mx-auto max-w-7xl px-6 py-6">{children}</main>
        </Providers>
      </body>
    </html>
  );
}
