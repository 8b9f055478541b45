import { describe, expect, it } from "vitest";
import {
  checkBodySize,
  checkHost,
  checkWriteOrigin,
  isSecureRequest,
  type RequestFacts,
} from "./request-guard";
import { decodeUtf8, findBadActionArguments, findBadJson, findBadUrl, parseCheckedJson } from "./input-guard";
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

  it("reads bodies as strict UTF-8: broken bytes are refused, not turned into U+FFFD", () => {
    expect(decodeUtf8(new TextEncoder().encode('{"id":"café"}'))).toBe('{"id":"café"}');
    expect(decodeUtf8(new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]))).toBeNull();
    expect(decodeUtf8(new Uint8Array([0xed, 0xa0, 0x80]))).toBeNull(); // an encoded surrogate
  });

  it("takes server-action arguments only as an array of plain values", () => {
    const plain = { multipart: false };
    for (const args of [1, null, "x", true, { 0: {} }])
      expect(findBadActionArguments(args, plain), JSON.stringify(args)).toBe(
        "the arguments must be a JSON array",
      );
    // What React writes for plain values: escaped "$" strings, undefined, non-finite numbers, dates, bigints.
    const ok = [
      {
        id: "$$literal dollar",
        next: "$undefined",
        n: ["$NaN", "$-Infinity", "$-0", "$n42"],
        at: "$D2026-01-01",
      },
    ];
    expect(findBadActionArguments(ok, plain)).toBeNull();
    for (const ref of ["$Q1", "$W1", "$@1", "$h1", "$F1", "$K1", "$B1", "$i", "$1", "$S", "$Y", "$l", "$n1x"])
      expect(findBadActionArguments([{ a: [ref] }], plain), ref).toBe(
        "arguments.0.a.0 is a reference to a value the studio's actions do not take",
      );
    // FormData only where it can exist: the parts of a multipart body.
    expect(findBadActionArguments(["$K1"], { multipart: true })).toBeNull();
    expect(findBadActionArguments(["$Q1"], { multipart: true })).toMatch(/reference/);
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
    const direct = { forwardedProto: null, viaTrustedProxy: false };
    expect(isSecureRequest(direct, { ENVSTUDIO_PUBLIC_URL: "https://studio.example.org" })).toBe(true);
    expect(isSecureRequest(direct, {})).toBe(false);
    // X-Forwarded-Proto is the word of a trusted proxy, or of nobody.
    expect(isSecureRequest({ forwardedProto: "https", viaTrustedProxy: true }, {})).toBe(true);
    expect(isSecureRequest({ forwardedProto: "https", viaTrustedProxy: false }, {})).toBe(false);
  });
});
