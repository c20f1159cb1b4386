import { Redis } from "ioredis";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import {
  type RateLimitDecision,
  type RateLimiter,
  RateLimiterUnavailableError,
  type RateLimitRule,
  ruleCacheKey,
} from "../../providers/ratelimit/types";

export interface RedisRateLimiterOptions {
  /** TCP connect timeout; also the longest a first request waits for the connection. */
  connectTimeoutMs?: number;
  /** A command without a reply after this long fails (the store counts as unavailable). */
  commandTimeoutMs?: number;
}

/**
 * Rate limiter over Redis (private Node deployment, `REDIS_URL`): every process that points at
 * the same Redis shares one budget per rule and key. Keys are `rl:<rule name>:<key>`.
 *
 * Store failures never queue or hang: the client has no offline queue, one retry per command,
 * short connect and command timeouts, and rate-limiter-flexible rejects at once while the
 * connection is not ready. Any such failure surfaces as RateLimiterUnavailableError, so the
 * middleware applies the rule's fail-closed / fail-open policy.
 */
export function createRedisRateLimiter(
  redisUrl: string,
  options: RedisRateLimiterOptions = {},
): RateLimiter {
  const connectTimeoutMs = options.connectTimeoutMs ?? 1000;
  const client = new Redis(redisUrl, {
    // Connect on first use: building deps (CLI scripts, tests) must not open a socket.
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: connectTimeoutMs,
    commandTimeout: options.commandTimeoutMs ?? 1000,
  });
  // Connection errors are reported through failing commands; without a listener ioredis prints
  // every reconnect failure as an "Unhandled error event".
  client.on("error", () => {});

  let pendingReady: Promise<void> | undefined;

  /**
   * `rejectIfRedisNotReady` rejects while the client is still connecting, which would fail the
   * first requests after start-up. Wait (bounded) only for that initial connection; while the
   * client is reconnecting after a failure, requests fail fast instead.
   */
  function whenConnected(): Promise<void> {
    const status = client.status;
    if (status === "ready") return Promise.resolve();
    if (status !== "wait" && status !== "connecting" && status !== "connect") {
      return Promise.resolve();
    }
    if (!pendingReady) {
      pendingReady = new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          client.off("ready", done);
          client.off("error", done);
          client.off("end", done);
          pendingReady = undefined;
          resolve();
        };
        const timer = setTimeout(done, connectTimeoutMs);
        client.once("ready", done);
        client.once("error", done);
        client.once("end", done);
        if (status === "wait") client.connect().catch(() => {});
      });
    }
    return pendingReady;
  }

  const limiters = new Map<string, RateLimiterRedis>();

  function limiterFor(rule: RateLimitRule): RateLimiterRedis {
    const cacheKey = ruleCacheKey(rule);
    let limiter = limiters.get(cacheKey);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: client,
        // `useRedisPackage` is for node-redis; ioredis is detected through `storeClient`.
        useRedisPackage: false,
        rejectIfRedisNotReady: true,
        keyPrefix: `rl:${rule.name}`,
        points: rule.points,
        duration: rule.durationSeconds,
      });
      limiters.set(cacheKey, limiter);
    }
    return limiter;
  }

  return {
    async consume(rule: RateLimitRule, key: string): Promise<RateLimitDecision> {
      const limiter = limiterFor(rule);
      await whenConnected();
      try {
        const res = await limiter.consume(key);
        return {
          allowed: true,
          limit: rule.points,
          remaining: res.remainingPoints,
          resetMs: Math.max(0, res.msBeforeNext),
        };
      } catch (err) {
        if (err instanceof RateLimiterRes) {
          return {
            allowed: false,
            limit: rule.points,
            remaining: 0,
            resetMs: Math.max(0, err.msBeforeNext),
          };
        }
        throw new RateLimiterUnavailableError(err);
      }
    },

    async close(): Promise<void> {
      if (client.status === "ready") {
        try {
          await client.quit();
          return;
        } catch {
          // fall through to a hard disconnect
        }
      }
      client.disconnect();
    },
  };
}
