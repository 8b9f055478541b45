import { describe, expect, it } from "vitest";
import {
  checkBodySize,
  checkHost,
  checkWriteOrigin,
  isSecureRequest,
  type RequestFacts,
} from "./request-guard";
import { findBadJson, findBadUrl, parseCheckedJson } from "./input-guard";
import { securityHeaders } from "./security-headers";

const facts = (over: Partial<RequestFacts>): RequestFacts => ({
  method: "POST",
  host: "127.0.0.1:3000",
  forwardedHost: null,
  origin: null,
  secFetchSite: null,
  ...over,
});

describe("Host allow-list (DNS rebinding)", () => {
  it("answers loopback names, the configured HOST and ENVSTUDIO_PUBLIC_URL names only", () => {
    const env = { HOST: "127.0.0.1" };
    for (const host of ["127.0.0.1:3000", "localhost:3000", "[::1]:3000", "LOCALHOST"])
      expect(checkHost(facts({ host }), env)).toBeNull();
    expect(checkHost(facts({ host: "rebind.example:3000" }), env)).toMatchObject({ status: 421 });
    expect(checkHost(facts({ host: null }), env)).toMatchObject({ status: 400 });
    expect(checkHost(facts({ host: "a@b" }), env)).toMatchObject({ status: 400 });
    expect(checkHost(facts({ host: "127.0.0.2:9" }), { HOST: "127.0.0.2" })).toBeNull();
    expect(checkHost(facts({ host: "10.0.0.5:3000" }), { HOST: "0.0.0.0" })).toMatchObject({ status: 421 });
    expect(
      checkHost(facts({ host: "studio.example.org" }), {
        HOST: "0.0.0.0",
        ENVSTUDIO_PUBLIC_URL: "https://studio.example.org",
      }),
    ).toBeNull();
  });
});

describe("cross-site writes", () => {
  it("refuses writes from another origin or port, with or without a session, and lets reads and non-browser clients through", () => {
    expect(
      checkWriteOrigin(facts({ origin: "http://127.0.0.1:3000", secFetchSite: "same-origin" }), {}),
    ).toBeNull();
    expect(
      checkWriteOrigin(facts({ origin: "http://127.0.0.1:3001", secFetchSite: "same-site" }), {}),
    ).toMatchObject({ status: 403 });
    expect(checkWriteOrigin(facts({ origin: "http://127.0.0.1:3001" }), {})).toMatchObject({ status: 403 });
    expect(checkWriteOrigin(facts({ secFetchSite: "cross-site" }), {})).toMatchObject({ status: 403 });
    expect(checkWriteOrigin(facts({ origin: "null" }), {})).toMatchObject({ status: 403 });
    expect(
      checkWriteOrigin(
        facts({ method: "GET", origin: "http://evil.example", secFetchSite: "cross-site" }),
        {},
      ),
    ).toBeNull();
    expect(checkWriteOrigin(facts({}), {})).toBeNull(); // curl: no Origin, no Sec-Fetch-Site
    const proxied = facts({ host: "127.0.0.1:3000", origin: "https://studio.example.org" });
    expect(checkWriteOrigin(proxied, {})).toMatchObject({ status: 403 });
    expect(checkWriteOrigin(proxied, { ENVSTUDIO_PUBLIC_URL: "https://studio.example.org" })).toBeNull();
  });
});

describe("bad input", () => {
  it("finds NUL bytes, lone surrogates, broken encoding and deep nesting", () => {
    expect(findBadUrl("/api/runs/a%00b", "")).toMatch(/NUL/);
    expect(findBadUrl("/api/environments", "?q=a%00b")).toMatch(/NUL/);
    expect(findBadUrl("/api/runs/%ED%A0%80", "")).toMatch(/percent-encoding/);
    expect(findBadUrl("/api/environments", "?q=caf%C3%A9+x")).toBeNull();
    expect(findBadJson({ a: ["x\u0000"] })).toMatch(/input\.a\.0 contains a NUL/);
    expect(findBadJson({ a: "\ud800" })).toMatch(/surrogate/);
    expect(findBadJson({ "\ud83d\ude00": "ok" })).toBeNull();
    const deep = "[".repeat(5000) + "]".repeat(5000);
    expect(parseCheckedJson(deep)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/nested more than 64/) as string,
    });
    expect(parseCheckedJson("not json")).toMatchObject({ ok: false });
    expect(parseCheckedJson('[{"a":1}]')).toEqual({ ok: true, value: [{ a: 1 }] });
  });

  it("has one upload limit with 413, a 1 MiB limit on other writes, and 411 for undeclared chunked bodies", () => {
    const env = { ENVSTUDIO_IMPORT_MAX_BYTES: String(12 * 1024 * 1024) };
    const upload = (contentLength: string | null, chunked = false) =>
      checkBodySize({ method: "POST", pathname: "/api/imports", contentLength, chunked }, env);
    expect(upload(String(11 * 1024 * 1024))).toBeNull();
    expect(upload(String(13 * 1024 * 1024))).toMatchObject({
      status: 413,
      message: expect.stringContaining("ENVSTUDIO_IMPORT_MAX_BYTES") as string,
    });
    expect(upload(null, true)).toMatchObject({ status: 411 });
    expect(
      checkBodySize(
        { method: "POST", pathname: "/review", contentLength: String(2 * 1024 * 1024), chunked: false },
        env,
      ),
    ).toMatchObject({ status: 413 });
    expect(
      checkBodySize({ method: "GET", pathname: "/review", contentLength: null, chunked: true }, env),
    ).toBeNull();
  });
});

describe("security headers and cookies", () => {
  it("sends CSP, framing, sniffing and referrer headers; HSTS and Secure cookies only when configured for HTTPS", () => {
    const headers = securityHeaders({ dev: false, https: false });
    expect(headers["Content-Security-Policy"]).toContain("frame-ancestors 'none'");
    expect(headers["Content-Security-Policy"]).toContain("script-src 'self' 'unsafe-inline';");
    expect(headers["Content-Security-Policy"]).not.toContain("unsafe-eval");
    expect(headers).toMatchObject({
      "X-Frame-Options": "DENY",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "same-origin",
    });
    expect(headers["Strict-Transport-Security"]).toBeUndefined();
    expect(securityHeaders({ dev: false, https: true })["Strict-Transport-Security"]).toBeDefined();
    expect(isSecureRequest(null, { ENVSTUDIO_PUBLIC_URL: "https://studio.example.org" })).toBe(true);
    expect(isSecureRequest("https", {})).toBe(true);
    expect(isSecureRequest(null, {})).toBe(false);
  });
});
