"use client";
import { useSyncExternalStore } from "react";
import { Button } from "./button";
import { THEMES, type Theme, readTheme, saveTheme, subscribeTheme } from "./theme";

const LABEL: Record<Theme, string> = { system: "System theme", light: "Light theme", dark: "Dark theme" };

/** Cycles the colour theme: system → light → dark. The server renders "system". */
export function ThemeToggle() {
  const theme = useSyncExternalStore(subscribeTheme, readTheme, () => "system" as const);
  const next = THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length]!;
  return (
    <Button
      variant="ghost"
      size="xs"
      aria-label={`Colour theme: ${theme} (switch to ${next})`}
      title={`Switch to ${LABEL[next].toLowerCase()}`}
      data-testid="theme-toggle"
      data-theme={theme}
      onClick={() => saveTheme(next)}
    >
      {LABEL[theme]}
    </Button>
  );
}
