import type { Metadata } from "next";
import type { ReactNode } from "react";
import { NavBar } from "@/components/ui/nav-bar";
import { AccountMenu } from "@/components/auth/account-menu";
import { getIdentity } from "@/lib/auth/server/require-role";
import { THEME_SCRIPT } from "@/components/ui/theme";
import { isDemoStudio } from "@/lib/llm/demo-studio";
import { DemoModelBadge } from "@/components/ui/badge";
import { Providers } from "./providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "EnvStudio", template: "%s · EnvStudio" },
  description: "Synthesize, review and export tool-interactive training environments.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const { user, signedIn } = await getIdentity();
  return (
    // The theme script sets <html class="dark"> before React hydrates: not a mismatch to report.
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body className="min-h-screen bg-slate-50 font-sans text-slate-900 antialiased">
        {/* The nav bar is inside the providers: its sign-out button is a mutation. */}
        <Providers>
          <NavBar
            isAdmin={user?.role === "ADMIN"}
            account={<AccountMenu user={user} signedIn={signedIn} />}
          />
          {isDemoStudio() ? (
            <p
              role="status"
              className="border-b border-violet-200 bg-violet-50 px-6 py-2 text-center text-sm text-violet-900"
            >
              <DemoModelBadge /> Offline demo: every model reply is scripted from the sample environments, no
              LLM is called. Restart with OPENAI_BASE_URL set (without --demo) for real work.
            </p>
          ) : null}
          <main className="mx-auto max-w-7xl px-4 py-6 md:px-6">{children}</main>
        </Providers>
      </body>
    </html>
  );
}
