import { Hono } from "hono";
import { describe, expect, it, vi } from "vitest";
import { clientIp, ipRateLimitKey } from "../../src/http/client-ip";
import { rateLimit } from "../../src/http/rate-limit";
import { RATE_LIMIT_RULES } from "../../src/http/rate-limit-rules";
import { createMemoryRateLimiter } from "../../src/providers/ratelimit/memory";
import {
  type RateLimiter,
  RateLimiterUnavailableError,
  type RateLimitRule,
} from "../../src/providers/ratelimit/types";

const rule: RateLimitRule = {
  name: "test_login",
  points: 5,
  durationSeconds: 60,
  failClosed: true,
};

function appWith(limiter: RateLimiter, r: RateLimitRule = rule) {
  const app = new Hono();
  app.use(
    "/limited",
    rateLimit(
      r,
      (c) => c.req.header("x-key") ?? "anon",
      () => limiter,
    ),
  );
  app.post("/limited", (c) => c.json({ ok: true }));
  return app;
}

const post = (app: Hono, key: string) =>
  app.request("/limited", { method: "POST", headers: { "x-key": key } });

const unavailable: RateLimiter = {
  consume: async () => {
    throw new RateLimiterUnavailableError(new Error("ECONNREFUSED 10.1.2.3:6379 secret-host"));
  },
};

describe("rateLimit middleware (memory limiter)", () => {
  it("sets RateLimit-* headers on allowed requests", async () => {
    const app = appWith(createMemoryRateLimiter());
    const res = await post(app, "a");
    expect(res.status).toBe(200);
    expect(res.headers.get("RateLimit-Limit")).toBe("5");
    expect(res.headers.get("RateLimit-Remaining")).toBe("4");
    const reset = Number(res.headers.get("RateLimit-Reset"));
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(60);
    expect(res.headers.get("Retry-After")).toBeNull();
  });

  it("rejects the 6th request in a window with 429, Retry-After and a detail", async () => {
    const app = appWith(createMemoryRateLimiter());
    for (let i = 0; i < 5; i++) {
      const ok = await post(app, "a");
      expect(ok.status).toBe(200);
      expect(ok.headers.get("RateLimit-Remaining")).toBe(String(4 - i));
    }
    const res = await post(app, "a");
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers.get("Retry-After"));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(res.headers.get("RateLimit-Limit")).toBe("5");
    expect(res.headers.get("RateLimit-Remaining")).toBe("0");
    expect(res.headers.get("RateLimit-Reset")).toBe(String(retryAfter));
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    const body = (await res.json()) as { detail: string };
    expect(body.detail).toBe(
      `Too many requests, try again in ${retryAfter} second${retryAfter === 1 ? "" : "s"}`,
    );
  });

  it("keeps separate budgets per key", async () => {
    const app = appWith(createMemoryRateLimiter());
    for (let i = 0; i < 5; i++) expect((await post(app, "a")).status).toBe(200);
    expect((await post(app, "a")).status).toBe(429);
    const other = await post(app, "b");
    expect(other.status).toBe(200);
    expect(other.headers.get("RateLimit-Remaining")).toBe("4");
  });

  it("keeps separate budgets per rule name", async () => {
    const limiter = createMemoryRateLimiter();
    const other: RateLimitRule = { ...rule, name: "test_other" };
    for (let i = 0; i < 5; i++) await limiter.consume(rule, "k");
    expect((await limiter.consume(rule, "k")).allowed).toBe(false);
    expect((await limiter.consume(other, "k")).allowed).toBe(true);
  });

  it("answers 503 with Retry-After and no error text when a fail-closed store is down", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const res = await post(appWith(unavailable, rule), "a");
      expect(res.status).toBe(503);
      expect(res.headers.get("Retry-After")).toBe("5");
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({
        detail: "Service temporarily unavailable, try again shortly",
        code: "service_unavailable",
      });
      expect(text).not.toMatch(/ECONNREFUSED|secret-host/);
      expect(warn.mock.calls.flat().join(" ")).not.toMatch(/ECONNREFUSED|secret-host/);
    } finally {
      warn.mockRestore();
    }
  });

  it("lets the request through when a fail-open store is down", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const res = await post(appWith(unavailable, { ...rule, failClosed: false }), "a");
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true });
      expect(res.headers.get("RateLimit-Limit")).toBeNull();
    } finally {
      warn.mockRestore();
    }
  });

  it("does not swallow programming errors from the limiter", async () => {
    const broken: RateLimiter = {
      consume: async () => {
        throw new TypeError("bug");
      },
    };
    const app = appWith(broken);
    app.onError((_err, c) => c.json({ detail: "Internal server error" }, 500));
    expect((await post(app, "a")).status).toBe(500);
  });

  it("exports the spec's rules", () => {
    expect(RATE_LIMIT_RULES.login).toMatchObject({ points: 5, durationSeconds: 60 });
    expect(RATE_LIMIT_RULES.register).toMatchObject({ points: 3, durationSeconds: 3600 });
    expect(RATE_LIMIT_RULES.guest).toMatchObject({ points: 5, durationSeconds: 900 });
    expect(RATE_LIMIT_RULES.passwordChange).toMatchObject({ points: 3, durationSeconds: 300 });
    expect(RATE_LIMIT_RULES.payment).toMatchObject({ points: 20, durationSeconds: 60 });
    expect(RATE_LIMIT_RULES.admin).toMatchObject({ points: 30, durationSeconds: 60 });
    const names = Object.values(RATE_LIMIT_RULES).map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe("clientIp", () => {
  function ipApp(trustProxyHops: number, trustCfHeader = false) {
    const app = new Hono();
    app.get("/ip", (c) => c.text(clientIp(c, { trustProxyHops, trustCfHeader })));
    return app;
  }
  const nodeEnv = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } });
  const ask = async (app: Hono, headers: Record<string, string>, env?: unknown) =>
    (await app.request("/ip", { headers }, env)).text();

  it("uses the socket address and ignores a spoofed X-Forwarded-For when TRUST_PROXY=0", async () => {
    const app = ipApp(0);
    expect(await ask(app, { "X-Forwarded-For": "6.6.6.6" }, nodeEnv("10.0.0.7"))).toBe("10.0.0.7");
    expect(await ask(app, { "CF-Connecting-IP": "6.6.6.6" }, nodeEnv("10.0.0.7"))).toBe("10.0.0.7");
  });

  it("reads the socket address nested under `server` and unwraps IPv4-mapped IPv6", async () => {
    const app = ipApp(0);
    expect(await ask(app, {}, { server: nodeEnv("::ffff:192.0.2.1") })).toBe("192.0.2.1");
  });

  it("falls back to 'unknown' without a socket or trusted header", async () => {
    expect(await ask(ipApp(0), { "X-Forwarded-For": "6.6.6.6" })).toBe("unknown");
  });

  it("takes the n-th X-Forwarded-For entry from the right with n trusted hops", async () => {
    const headers = { "X-Forwarded-For": "6.6.6.6, 203.0.113.9 , 10.0.0.2" };
    expect(await ask(ipApp(1), headers, nodeEnv("10.0.0.1"))).toBe("10.0.0.2");
    expect(await ask(ipApp(2), headers, nodeEnv("10.0.0.1"))).toBe("203.0.113.9");
    // fewer entries than hops: the leftmost one
    expect(await ask(ipApp(5), headers, nodeEnv("10.0.0.1"))).toBe("6.6.6.6");
    // no header: the socket
    expect(await ask(ipApp(1), {}, nodeEnv("10.0.0.1"))).toBe("10.0.0.1");
  });

  it("a client cannot reset its key by prepending to X-Forwarded-For", async () => {
    const app = ipApp(1);
    const a = await ask(app, { "X-Forwarded-For": "1.1.1.1, 198.51.100.4" });
    const b = await ask(app, { "X-Forwarded-For": "2.2.2.2, 198.51.100.4" });
    expect(a).toBe("198.51.100.4");
    expect(b).toBe(a);
  });

  it("uses CF-Connecting-IP only when told to trust it", async () => {
    const headers = { "CF-Connecting-IP": "198.51.100.23", "X-Forwarded-For": "6.6.6.6" };
    expect(await ask(ipApp(0, true), headers)).toBe("198.51.100.23");
    expect(await ask(ipApp(0, false), headers)).toBe("unknown");
  });
});

describe("ipRateLimitKey", () => {
  it("keeps IPv4 and unknown as they are", () => {
    expect(ipRateLimitKey("203.0.113.9")).toBe("203.0.113.9");
    expect(ipRateLimitKey("unknown")).toBe("unknown");
  });

  it("collapses IPv6 addresses to their /64", () => {
    expect(ipRateLimitKey("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(ipRateLimitKey("2001:DB8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(ipRateLimitKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(ipRateLimitKey("::1")).toBe("0:0:0:0::/64");
    expect(ipRateLimitKey("64:ff9b::192.0.2.33")).toBe("64:ff9b:0:0::/64");
    expect(ipRateLimitKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  });

  it("returns unparsable input unchanged", () => {
    expect(ipRateLimitKey("1::2::3")).toBe("1::2::3");
    expect(ipRateLimitKey("zz::1")).toBe("zz::1");
  });
});
