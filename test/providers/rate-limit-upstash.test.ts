import { Hono } from "hono";
import { afterEach, describe, expect, it, vi } from "vitest";
import { rateLimit } from "../../src/http/rate-limit";
import {
  RateLimiterUnavailableError,
  type RateLimitRule,
} from "../../src/providers/ratelimit/types";
import { createUpstashRateLimiter } from "../../src/providers/ratelimit/upstash";
import { type FakeUpstash, startFakeUpstash } from "../fakes/upstash-rest";

const REDIS_URL = process.env.REDIS_URL;

const uniqueRule = (points: number, failClosed = true): RateLimitRule => ({
  name: `test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 10)}`,
  points,
  // Upstash windows are aligned to the clock (window number = now / duration): a long window
  // makes it practically impossible for a test to straddle a window boundary.
  durationSeconds: 3600,
  failClosed,
});

describe.skipIf(!REDIS_URL)("Upstash rate limiter (fake Upstash REST over real Redis)", () => {
  const servers: FakeUpstash[] = [];
  const start = async (opts: { token?: string; hang?: boolean } = {}) => {
    const server = await startFakeUpstash({ redisUrl: REDIS_URL!, ...opts });
    servers.push(server);
    return server;
  };

  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it("counts down, rejects over the limit and reports the reset time", async () => {
    const server = await start();
    const limiter = createUpstashRateLimiter({ url: server.url, token: server.token });
    const rule = uniqueRule(2);
    const first = await limiter.consume(rule, "k");
    expect(first).toMatchObject({ allowed: true, limit: 2, remaining: 1 });
    expect(first.resetMs).toBeGreaterThan(0);
    expect(first.resetMs).toBeLessThanOrEqual(3_600_000);
    expect(await limiter.consume(rule, "k")).toMatchObject({ allowed: true, remaining: 0 });
    expect(await limiter.consume(rule, "k")).toMatchObject({ allowed: false, remaining: 0 });
    expect(await limiter.consume(rule, "other")).toMatchObject({ allowed: true });
    // it went through the Lua scripts, keyed under rl:<rule name>
    const evals = server.commands.filter((c) => c[0] === "EVALSHA" || c[0] === "EVAL");
    expect(evals.length).toBeGreaterThan(0);
    expect(evals[0]?.[3]).toMatch(new RegExp(`^rl:${rule.name}:k:\\d+$`));
  });

  it("two limiters (two isolates) share one budget", async () => {
    const server = await start();
    const a = createUpstashRateLimiter({ url: server.url, token: server.token });
    const b = createUpstashRateLimiter({ url: server.url, token: server.token });
    const rule = uniqueRule(5);
    const results: boolean[] = [];
    for (let i = 0; i < 3; i++) results.push((await a.consume(rule, "shared")).allowed);
    for (let i = 0; i < 3; i++) results.push((await b.consume(rule, "shared")).allowed);
    expect(results).toEqual([true, true, true, true, true, false]);
  });

  it("a wrong token is a store failure", async () => {
    const server = await start({ token: "right-token" });
    const limiter = createUpstashRateLimiter({ url: server.url, token: "wrong-token" });
    await expect(limiter.consume(uniqueRule(5), "k")).rejects.toBeInstanceOf(
      RateLimiterUnavailableError,
    );
  });

  it("a store that hangs past the time-out is a store failure, not a pass", async () => {
    const server = await start({ hang: true });
    const limiter = createUpstashRateLimiter({
      url: server.url,
      token: server.token,
      timeoutMs: 200,
    });
    await expect(limiter.consume(uniqueRule(5), "k")).rejects.toBeInstanceOf(
      RateLimiterUnavailableError,
    );
  });

  it("closes the fail-closed hole end to end: 503 for fail-closed, 200 for fail-open", async () => {
    const server = await start({ hang: true });
    const limiter = createUpstashRateLimiter({
      url: server.url,
      token: server.token,
      timeoutMs: 200,
    });
    const app = new Hono();
    app.use(
      "/closed",
      rateLimit(
        uniqueRule(5, true),
        () => "k",
        () => limiter,
      ),
    );
    app.use(
      "/open",
      rateLimit(
        uniqueRule(5, false),
        () => "k",
        () => limiter,
      ),
    );
    app.get("/closed", (c) => c.text("ok"));
    app.get("/open", (c) => c.text("ok"));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const closed = await app.request("/closed");
      expect(closed.status).toBe(503);
      expect(closed.headers.get("Retry-After")).toBe("5");
      expect((await app.request("/open")).status).toBe(200);
    } finally {
      warn.mockRestore();
    }
  });
});
