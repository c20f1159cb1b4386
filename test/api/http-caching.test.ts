import { gunzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, registerUser } from "../support/client";
import { createTestContext } from "../support/harness";

const ORIGIN = "https://app.example.test";
const ctx = await createTestContext({ env: { CORS_ORIGINS: ORIGIN } });
const { app } = ctx;

const CACHEABLE = ["/api/v1/openapi.json", "/api/v1/credits/packages", "/api/v1/credits/plans"];

describe("public caching", () => {
  it.each(CACHEABLE)("%s: public max-age, a strong ETag, 304 on If-None-Match", async (path) => {
    const first = await app.request(path);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toMatch(/^public, max-age=\d+$/);
    expect(first.headers.get("vary")).toMatch(/Origin/);
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[^"]+"$/);
    const body = await first.text();

    const again = await app.request(path, { headers: { "If-None-Match": etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("cache-control")).toMatch(/^public/);
    expect(again.headers.get("x-request-id")).toBeTruthy();
    // A weak form of the same tag (what a client got from a compressed answer) matches too.
    const weak = await app.request(path, { headers: { "If-None-Match": `W/${etag}` } });
    expect(weak.status).toBe(304);

    const stale = await app.request(path, { headers: { "If-None-Match": '"not-it"' } });
    expect(stale.status).toBe(200);
    expect(await stale.text()).toBe(body);
  });

  it("keeps no-store everywhere else, signed-in answers and errors included", async () => {
    const user = await registerUser(app);
    for (const [path, token] of [
      ["/api/v1/credits/balance", user.accessToken],
      ["/api/v1/auth/me", user.accessToken],
      ["/api/v1/auth/me", undefined],
      ["/nope", undefined],
    ] as const) {
      const { res } = await call(app, path, { token });
      expect(res.headers.get("cache-control"), path).toBe("no-store");
      expect(res.headers.get("etag"), path).toBeNull();
    }
  });

  it("a changed list gets a new ETag", async () => {
    const before = (await app.request("/api/v1/credits/packages")).headers.get("etag");
    await ctx.deps.db.execute(
      sql`update credit_packages set name = name || ' (renamed)' where active`,
    );
    const after = await app.request("/api/v1/credits/packages", {
      headers: { "If-None-Match": before! },
    });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(before);
  });
});

describe("compression", () => {
  it("gzips the OpenAPI document and JSON over 1 KB for a client that accepts it", async () => {
    const plain = await app.request("/api/v1/openapi.json");
    const text = await plain.text();
    expect(plain.headers.get("content-encoding")).toBeNull();

    const res = await app.request("/api/v1/openapi.json", {
      headers: { "Accept-Encoding": "gzip, deflate" },
    });
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("vary")).toMatch(/Accept-Encoding/);
    // The tag of a compressed body is weak: its bytes are not the ones the strong tag names.
    expect(res.headers.get("etag")).toMatch(/^W\/"/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(bytes.byteLength).toBeLessThan(text.length / 4);
    expect(gunzipSync(bytes).toString("utf8")).toBe(text);
  });

  it("leaves small JSON, and clients that ask for none, as they are", async () => {
    const user = await registerUser(app);
    const small = await call(app, "/api/v1/auth/me", {
      token: user.accessToken,
      headers: { "Accept-Encoding": "gzip" },
    });
    expect(small.status).toBe(200);
    expect(small.res.headers.get("content-encoding")).toBeNull();
    expect(small.body.email).toBe(user.email);

    const identity = await app.request("/api/v1/openapi.json", {
      headers: { "Accept-Encoding": "identity" },
    });
    expect(identity.headers.get("content-encoding")).toBeNull();
    const refused = await app.request("/api/v1/openapi.json", {
      headers: { "Accept-Encoding": "gzip;q=0, br;q=0" },
    });
    expect(refused.headers.get("content-encoding")).toBeNull();
  });
});

describe("CORS", () => {
  it("never gives `Origin: null` (sandboxed frames, data: pages) credentials or a reflection", async () => {
    // The reported configuration no longer starts, in any environment.
    await expect(ctx.makeApp({}, { CORS_ORIGINS: `${ORIGIN},*,null` })).rejects.toThrow(
      /CORS_ORIGINS: "\*" cannot be allowed with credentials/,
    );
    const preflight = await app.request("/api/v1/auth/me", {
      method: "OPTIONS",
      headers: { Origin: "null", "Access-Control-Request-Method": "GET" },
    });
    const simple = await app.request("/api/v1/credits/plans", { headers: { Origin: "null" } });
    for (const res of [preflight, simple]) {
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
      expect(res.headers.get("access-control-allow-credentials"), String(res.status)).toBeNull();
    }
  });

  it("exposes the download name, the ETag and the rate-limit headers to a frontend", async () => {
    const res = await app.request("/api/v1/credits/plans", { headers: { Origin: ORIGIN } });
    expect(res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    const exposed = (res.headers.get("access-control-expose-headers") ?? "")
      .split(",")
      .map((h) => h.trim().toLowerCase());
    for (const name of [
      "content-disposition",
      "etag",
      "x-request-id",
      "retry-after",
      "ratelimit-limit",
      "ratelimit-remaining",
      "ratelimit-reset",
    ]) {
      expect(exposed, name).toContain(name);
    }
  });
});
