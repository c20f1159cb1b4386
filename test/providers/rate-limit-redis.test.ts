import { afterEach, describe, expect, it } from "vitest";
import {
  type RateLimiter,
  RateLimiterUnavailableError,
  type RateLimitRule,
} from "../../src/providers/ratelimit/types";
import { createRedisRateLimiter } from "../../src/runtime/node/redis-rate-limiter";

const REDIS_URL = process.env.REDIS_URL;

const uniqueRule = (points: number): RateLimitRule => ({
  name: `test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 10)}`,
  points,
  durationSeconds: 60,
  failClosed: true,
});

describe.skipIf(!REDIS_URL)("Redis rate limiter", () => {
  const opened: RateLimiter[] = [];
  const open = (url: string) => {
    const limiter = createRedisRateLimiter(url);
    opened.push(limiter);
    return limiter;
  };

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((l) => l.close?.()));
  });

  it("counts down and rejects over the limit with the time to wait", async () => {
    const limiter = open(REDIS_URL!);
    const rule = uniqueRule(2);
    const first = await limiter.consume(rule, "k");
    expect(first).toMatchObject({ allowed: true, limit: 2, remaining: 1 });
    expect(first.resetMs).toBeGreaterThan(0);
    expect(first.resetMs).toBeLessThanOrEqual(60_000);
    expect(await limiter.consume(rule, "k")).toMatchObject({ allowed: true, remaining: 0 });
    const rejected = await limiter.consume(rule, "k");
    expect(rejected).toMatchObject({ allowed: false, limit: 2, remaining: 0 });
    expect(rejected.resetMs).toBeGreaterThan(0);
    expect(await limiter.consume(rule, "other")).toMatchObject({ allowed: true });
  });

  it("two instances on the same Redis share one budget", async () => {
    const a = open(REDIS_URL!);
    const b = open(REDIS_URL!);
    const rule = uniqueRule(5);
    const results: boolean[] = [];
    for (let i = 0; i < 3; i++) results.push((await a.consume(rule, "shared")).allowed);
    for (let i = 0; i < 3; i++) results.push((await b.consume(rule, "shared")).allowed);
    expect(results).toEqual([true, true, true, true, true, false]);
    expect((await a.consume(rule, "shared")).allowed).toBe(false);
  });

  it("concurrent requests on two instances never exceed the budget", async () => {
    const a = open(REDIS_URL!);
    const b = open(REDIS_URL!);
    const rule = uniqueRule(5);
    const decisions = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).consume(rule, "burst")),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
  });

  it("throws RateLimiterUnavailableError when Redis is unreachable", async () => {
    const limiter = open("redis://127.0.0.1:1");
    const rule = uniqueRule(5);
    await expect(limiter.consume(rule, "k")).rejects.toBeInstanceOf(RateLimiterUnavailableError);
    // and keeps failing (not hanging) on later calls while it reconnects
    await expect(limiter.consume(rule, "k")).rejects.toBeInstanceOf(RateLimiterUnavailableError);
  });
});
