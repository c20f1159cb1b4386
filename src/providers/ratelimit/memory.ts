import type {
  RateLimiterMemory as RateLimiterMemoryClass,
  RateLimiterRes as RateLimiterResClass,
} from "rate-limiter-flexible";
// Deep imports on purpose: the package root loads every store adapter, including
// RateLimiterCluster which requires Node's `cluster` and `crypto`; whether a Workers bundle
// survives that depends on the bundler honouring the package's "browser" field. The package
// ships types for its root only, so the runtime values are typed through the root's declarations.
// @ts-expect-error -- no declaration file for the deep path; typed by the casts below
import RateLimiterMemoryImpl from "rate-limiter-flexible/lib/RateLimiterMemory.js";
// @ts-expect-error -- no declaration file for the deep path; typed by the casts below
import RateLimiterResImpl from "rate-limiter-flexible/lib/RateLimiterRes.js";
import {
  type RateLimitDecision,
  type RateLimiter,
  type RateLimitRule,
  ruleCacheKey,
} from "./types";

const RateLimiterMemory = RateLimiterMemoryImpl as typeof RateLimiterMemoryClass;
const RateLimiterRes = RateLimiterResImpl as typeof RateLimiterResClass;

/**
 * In-process limiter for the embedded default (`npm start`) and tests. Budgets live in this
 * process only, so several processes or isolates each get their own: use Redis or Upstash there.
 */
export function createMemoryRateLimiter(): RateLimiter {
  const limiters = new Map<string, RateLimiterMemoryClass>();

  function limiterFor(rule: RateLimitRule): RateLimiterMemoryClass {
    const cacheKey = ruleCacheKey(rule);
    let limiter = limiters.get(cacheKey);
    if (!limiter) {
      limiter = new RateLimiterMemory({
        keyPrefix: rule.name,
        points: rule.points,
        duration: rule.durationSeconds,
      });
      limiters.set(cacheKey, limiter);
    }
    return limiter;
  }

  return {
    async consume(rule: RateLimitRule, key: string): Promise<RateLimitDecision> {
      try {
        const res = await limiterFor(rule).consume(key);
        return {
          allowed: true,
          limit: rule.points,
          remaining: res.remainingPoints,
          resetMs: res.msBeforeNext,
        };
      } catch (err) {
        if (err instanceof RateLimiterRes) {
          return { allowed: false, limit: rule.points, remaining: 0, resetMs: err.msBeforeNext };
        }
        // The memory store cannot be "unavailable": anything else is a programming error.
        throw err;
      }
    },
  };
}
