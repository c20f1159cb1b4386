import { Ratelimit } from "@upstash/ratelimit";
// The Workers build of the client: plain fetch, no `cache` request option, no process.env.
import { Redis } from "@upstash/redis/cloudflare";
import {
  type RateLimitDecision,
  type RateLimiter,
  RateLimiterUnavailableError,
  type RateLimitRule,
  ruleCacheKey,
} from "./types";

export interface UpstashRateLimiterOptions {
  /** UPSTASH_REDIS_REST_URL */
  url: string;
  /** UPSTASH_REDIS_REST_TOKEN */
  token: string;
  /** Longest a check may take before the store counts as unavailable. Default 1000 ms. */
  timeoutMs?: number;
}

/**
 * Rate limiter over Upstash Redis (REST), for the edge: every isolate shares one budget per rule
 * and key. Fixed windows, keys `rl:<rule name>:<key>:<window number>`.
 *
 * @upstash/redis always calls the global `fetch` (its config has no fetch hook), so this
 * adapter does too.
 *
 * Failure handling: on time-out @upstash/ratelimit does not fail, it resolves
 * `{ success: true, reason: "timeout" }` and lets the request through. That would silently
 * turn fail-closed rules (login, payments) into fail-open ones, so a "timeout" result and any
 * thrown error (network, auth, Redis error) become RateLimiterUnavailableError and the
 * middleware applies the rule's own policy. The HTTP request itself is aborted at the same
 * deadline so no fetch outlives the check.
 */
export function createUpstashRateLimiter(opts: UpstashRateLimiterOptions): RateLimiter {
  const timeoutMs = opts.timeoutMs ?? 1000;
  const redis = new Redis({
    url: opts.url,
    token: opts.token,
    enableTelemetry: false,
    // One quick retry of a failed fetch (the default is 5 with exponential back-off).
    retry: { retries: 1, backoff: () => 50 },
    // A function, not a signal: a fresh deadline per request, and with a function the client
    // throws on abort (with a plain signal it would resolve the request with "Aborted").
    signal: () => AbortSignal.timeout(timeoutMs),
  });

  const limiters = new Map<string, Ratelimit>();

  function limiterFor(rule: RateLimitRule): Ratelimit {
    const cacheKey = ruleCacheKey(rule);
    let limiter = limiters.get(cacheKey);
    if (!limiter) {
      limiter = new Ratelimit({
        redis,
        limiter: Ratelimit.fixedWindow(rule.points, `${rule.durationSeconds} s`),
        prefix: `rl:${rule.name}`,
        analytics: false,
        enableTelemetry: false,
        timeout: timeoutMs,
      });
      limiters.set(cacheKey, limiter);
    }
    return limiter;
  }

  return {
    async consume(rule: RateLimitRule, key: string): Promise<RateLimitDecision> {
      const limiter = limiterFor(rule);
      let res: Awaited<ReturnType<Ratelimit["limit"]>>;
      try {
        res = await limiter.limit(key);
      } catch (err) {
        throw new RateLimiterUnavailableError(err);
      }
      if (res.reason === "timeout") {
        throw new RateLimiterUnavailableError(new Error(`no answer within ${timeoutMs} ms`));
      }
      return {
        allowed: res.success,
        limit: rule.points,
        remaining: Math.max(0, res.remaining),
        // `reset` is an absolute Unix time in milliseconds.
        resetMs: Math.max(0, res.reset - Date.now()),
      };
    },
  };
}
