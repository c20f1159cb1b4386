import type { MiddlewareHandler } from "hono";
import type { PlanLimitName } from "../modules/entitlements/limits";
import { type Feature, PlanDeniedSchema } from "../modules/entitlements/schemas";
import { checkFeature } from "../modules/entitlements/service";
import type { AppEnv } from "./env";
import { errorResponse } from "./errors";

/**
 * Feature gate: the caller's plan in effect must list `feature` (docs/credits.md has the
 * matrix). Goes right after requireAuth (which has already checked a cookie session's CSRF
 * token), before idempotency, rate limits, provider checks and charges, so a locked route costs
 * nothing and leaves nothing behind. With `limit`, a
 * quota already used up is refused here too (403), before anything is charged.
 */
export function requireFeature(
  feature: Feature,
  options: { limit?: PlanLimitName } = {},
): MiddlewareHandler<AppEnv> {
  return async function requireFeature(c, next) {
    await checkFeature(c.get("deps"), c.get("auth").userId, feature, options);
    await next();
  };
}

/**
 * The 403 a gated route declares. Spread it after csrfErrorResponses: its description covers
 * both (the CSRF refusal has the same `{detail}` shape).
 */
export const featureGateResponses = (feature: Feature, extra?: string) => ({
  403: errorResponse(
    PlanDeniedSchema,
    `The caller's plan does not include the \`${feature}\` feature (detail names the plans ` +
      `that do)${extra ? `, ${extra}` : ""}; or a missing or invalid CSRF token`,
  ),
});

/** The 403 of a route whose writes count against a plan limit (enforced in SQL). */
export const planLimitResponses = (limit: PlanLimitName) => ({
  403: errorResponse(
    PlanDeniedSchema,
    `The \`${limit}\` limit of the caller's plan would be passed (detail names the max and the ` +
      "plans that allow more); nothing was written",
  ),
});
