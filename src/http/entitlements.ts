import { z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { Feature, PlanLimitName } from "../lib/plans";
import type { AppEnv } from "./env";
import { ErrorSchema, errorResponse } from "./errors";

/** The 403 of a feature gate or a reached plan limit (docs/credits.md). */
const PlanDeniedSchema = ErrorSchema.extend({
  detail: z.string().openapi({
    example: "The agent feature is not in your plan (free). Plans that include it: Business.",
  }),
  feature: z.string().optional().openapi({ description: "The feature the route needs" }),
  limit: z.string().optional().openapi({ description: "The plan limit that was reached" }),
  max: z.number().int().optional(),
  plan: z.string().optional().openapi({ description: "The caller's plan in effect" }),
  plans: z
    .array(z.string())
    .optional()
    .openapi({ description: "Codes of the plans that include the feature or allow more" }),
}).openapi("PlanDenied");

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
    const deps = c.get("deps");
    await deps.entitlements.checkFeature(deps, c.get("auth").userId, feature, options);
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
