/** A named budget: `points` requests per `durationSeconds` window for one key. */
export interface RateLimitRule {
  name: string;
  points: number;
  durationSeconds: number;
  /** When the store is unreachable: true rejects (auth, payments), false lets through. */
  failClosed: boolean;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until the window resets (or the key may retry). */
  resetMs: number;
}

/** Port every rate-limit store implements (memory, Redis, Upstash). */
export interface RateLimiter {
  /** Consumes one point of `rule` for `key`. Throws RateLimiterUnavailableError when the store fails. */
  consume(rule: RateLimitRule, key: string): Promise<RateLimitDecision>;
  close?(): Promise<void>;
}

export class RateLimiterUnavailableError extends Error {
  constructor(cause?: unknown) {
    super("rate limiter store unavailable", { cause });
    this.name = "RateLimiterUnavailableError";
  }
}

/** Cache key for a rule's limiter: a rule redefined with other numbers gets its own instance. */
export function ruleCacheKey(rule: RateLimitRule): string {
  return `${rule.name}|${rule.points}|${rule.durationSeconds}`;
}
