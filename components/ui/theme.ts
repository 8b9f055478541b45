/**
 * The colour theme: "system" follows `prefers-color-scheme`; "light" and "dark" are the visitor's
 * choice, kept in localStorage. THEME_SCRIPT applies it before the first paint (inline in the
 * layout's <head>, so no light flash) and follows system changes while the choice is "system".
 */
export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];
export const THEME_KEY = "envstudio-theme";

export const THEME_SCRIPT = `(() => {
  const media = matchMedia("(prefers-color-scheme: dark)");
  const apply = () => {
    let choice = null;
    try { choice = localStorage.getItem(${JSON.stringify(THEME_KEY)}); } catch {}
    const dark = choice === "dark" || (choice !== "light" && media.matches);
    document.documentElement.classList.toggle("dark", dark);
  };
  apply();
  media.addEventListener("change", apply);
  window.addEventListener("storage", apply);
  window.__envstudioApplyTheme = apply;
})();`;

export function readTheme(): Theme {
  try {
    const stored = localStorage.getItem(THEME_KEY);
    return stored === "light" || stored === "dark" ? stored : "system";
  } catch {
    return "system";
  }
}

export function saveTheme(theme: Theme): void {
  try {
    if (theme === "system") localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, theme);
  } catch {
    // storage refused (private mode): the choice lasts for this page only
  }
  const apply = (window as { __envstudioApplyTheme?: () => void }).__envstudioApplyTheme;
  if (apply) apply();
  else document.documentElement.classList.toggle("dark", theme === "dark");
  window.dispatchEvent(new Event(CHANGED));
}

const CHANGED = "envstudio-theme-change";

/** For useSyncExternalStore: this page's changes and other tabs' (storage events). */
export function subscribeTheme(onChange: () => void): () => void {
  window.addEventListener(CHANGED, onChange);
  window.addEventListener("storage", onChange);
  return () => {
    window.removeEventListener(CHANGED, onChange);
    window.removeEventListener("storage", onChange);
  };
}
