import type { Context, MiddlewareHandler } from "hono";
import { outageLog } from "../lib/logger";
import type { RateLimitRule } from "../providers/ratelimit/types";
import { clientIp, ipRateLimitKey } from "./client-ip";
import type { AppEnv } from "./env";
import { rateLimit } from "./rate-limit";
import { RATE_LIMIT_RULES } from "./rate-limit-rules";
import { markMiddleware } from "./route-traits";

/** The caller's address as configured for this runtime (socket, trusted XFF hop, or CF header). */
export function requestIp(c: Context<AppEnv>): string {
  const { config, platformIpHeader } = c.get("deps");
  return clientIp(c, {
    trustProxyHops: config.TRUST_PROXY,
    trustCfHeader: platformIpHeader === "CF-Connecting-IP",
  });
}

const limiterOf = (c: Context<AppEnv>) => c.get("deps").limiter;
/** One line per limiter outage, not one per request (lib/logger.ts outageLog). */
const logUnavailable = (c: Context<AppEnv>, message: string, rule: string) => {
  const { logger, clock } = c.get("deps");
  outageLog(logger).down("limiter", clock.now().getTime(), { rule, effect: message });
};

export const limitByIp = (rule: RateLimitRule): MiddlewareHandler<AppEnv> =>
  markMiddleware(
    rateLimit<AppEnv>(rule, (c) => ipRateLimitKey(requestIp(c)), limiterOf, logUnavailable),
    "rate-limited",
  );

/** Runs after requireAuth: one budget per user whatever address they come from. */
export const limitByUser = (rule: RateLimitRule): MiddlewareHandler<AppEnv> =>
  markMiddleware(
    rateLimit<AppEnv>(rule, (c) => c.get("auth").userId, limiterOf, logUnavailable),
    "rate-limited",
  );

/** The spec's 5 per minute per address and e-mail, read before validation (the body is cached). */
const limitLoginPerEmail: MiddlewareHandler<AppEnv> = rateLimit<AppEnv>(
  RATE_LIMIT_RULES.login,
  async (c) => {
    let email = "";
    try {
      const body = (await c.req.json()) as { email?: unknown };
      if (typeof body?.email === "string") email = body.email.trim().toLowerCase().slice(0, 254);
    } catch {
      // Malformed bodies are rejected by validation after this; they still spend the IP budget.
    }
    return `${ipRateLimitKey(requestIp(c))}|${email}`;
  },
  limiterOf,
  logUnavailable,
);
markMiddleware(limitLoginPerEmail, "rate-limited");

/**
 * Every budget a password login spends before any hash runs: the address across all e-mails
 * (per minute and per hour), then the address with this e-mail. The account's own failure
 * budget is claimed by the login statement (auth/service.ts), also before hashing.
 */
export const limitLogin = [
  limitByIp(RATE_LIMIT_RULES.loginIp),
  limitByIp(RATE_LIMIT_RULES.loginIpHourly),
  limitLoginPerEmail,
] as const;
