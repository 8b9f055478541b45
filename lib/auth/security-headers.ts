/**
 * Response headers on every page, asset and API answer (next.config.ts `headers()`, and proxy.ts on
 * the answers it makes itself). Pure so next.config.ts can import it.
 *
 * The Content-Security-Policy allows only this origin's scripts, styles, fonts, workers and
 * connections. Two allowances and why:
 * - `script-src 'unsafe-inline'`: Next.js streams page data as inline <script> tags. Nonces would
 *   need every page rendered per request, and the not-found page is prerendered. External scripts
 *   and eval stay blocked.
 * - `style-src 'unsafe-inline'` and `worker-src blob:`: Monaco (served from this origin, never a
 *   CDN) sets inline styles and may start its workers from blob URLs.
 * `next dev` additionally needs eval (React's dev tooling) and a websocket for hot reload.
 */
export function contentSecurityPolicy(opts: { dev: boolean }): string {
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", "'unsafe-inline'", ...(opts.dev ? ["'unsafe-eval'"] : [])],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:"],
    "font-src": ["'self'", "data:"],
    "worker-src": ["'self'", "blob:"],
    "connect-src": ["'self'", ...(opts.dev ? ["ws:"] : [])],
    "frame-ancestors": ["'none'"],
    "frame-src": ["'none'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}

export function securityHeaders(opts: { dev: boolean; https: boolean }): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(opts),
    // frame-ancestors covers current browsers; X-Frame-Options the ones that predate it.
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
    ...(opts.https ? { "Strict-Transport-Security": "max-age=31536000" } : {}),
  };
}
