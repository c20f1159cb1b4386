import type { Context, Env, MiddlewareHandler } from "hono";
import {
  type RateLimitDecision,
  type RateLimiter,
  RateLimiterUnavailableError,
  type RateLimitRule,
} from "../providers/ratelimit/types";
import { errorBody } from "./errors";

/** Retry-After sent with the 503 when a fail-closed rule cannot reach its store. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

function seconds(ms: number): number {
  return Math.max(0, Math.ceil(ms / 1000));
}

/** IETF draft RateLimit header fields, in the separate-header form. */
function setRateLimitHeaders(c: Context, decision: RateLimitDecision, resetSeconds: number): void {
  c.header("RateLimit-Limit", String(decision.limit));
  c.header("RateLimit-Remaining", String(Math.max(0, decision.remaining)));
  c.header("RateLimit-Reset", String(resetSeconds));
}

/**
 * Consumes one point of `rule` for the key `keyOf` derives from the request.
 *
 * - allowed: RateLimit-Limit / -Remaining / -Reset headers, then the handler runs;
 * - over the limit: 429 `{"detail"}` with Retry-After (whole seconds, at least 1) and the headers;
 * - store unavailable: 503 with Retry-After for a fail-closed rule, otherwise the request goes
 *   through without headers. No error text ever reaches the client.
 */
export function rateLimit<E extends Env>(
  rule: RateLimitRule,
  keyOf: (c: Context<E>) => string | Promise<string>,
  getLimiter: (c: Context<E>) => RateLimiter,
  /** Where "store unavailable" is reported (the app's logger); console.warn by default. */
  warn: (c: Context<E>, message: string, rule: string) => void = (_c, message) =>
    console.warn(message),
): MiddlewareHandler<E> {
  return async (c, next) => {
    const key = await keyOf(c);
    let decision: RateLimitDecision;
    try {
      decision = await getLimiter(c).consume(rule, key);
    } catch (err) {
      if (!(err instanceof RateLimiterUnavailableError)) throw err;
      // Only the rule name: store errors may carry host names or command text.
      warn(
        c,
        `rate limiter unavailable: ${rule.failClosed ? "rejecting" : "allowing"} request`,
        rule.name,
      );
      if (!rule.failClosed) {
        await next();
        return;
      }
      c.header("Retry-After", String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      return c.json(errorBody(503, "Service temporarily unavailable, try again shortly"), 503);
    }

    if (decision.allowed) {
      setRateLimitHeaders(c, decision, seconds(decision.resetMs));
    } else {
      const retryAfter = Math.max(1, seconds(decision.resetMs));
      setRateLimitHeaders(c, decision, retryAfter);
      c.header("Retry-After", String(retryAfter));
      const detail = `Too many requests, try again in ${retryAfter} second${retryAfter === 1 ? "" : "s"}`;
      return c.json(errorBody(429, detail), 429);
    }
    await next();
  };
}
