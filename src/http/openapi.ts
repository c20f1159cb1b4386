import type { z } from "@hono/zod-openapi";
import { requireAdmin, requireAuth } from "./auth";
import { authErrorResponses, ErrorSchema, errorResponse, rateLimitedResponses } from "./errors";
import { limitByUser } from "./limits";
import { RATE_LIMIT_RULES } from "./rate-limit-rules";

/** Pieces every route file shares, so each reads like the API map and nothing more. */
export const bearerSecurity = [{ bearerAuth: [] }];

export const jsonResponse = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { "application/json": { schema } },
});

/** Admin routes: a valid token, admin rights from the database, 30 requests a minute. */
export const adminGuard = [requireAuth, requireAdmin, limitByUser(RATE_LIMIT_RULES.admin)];
/**
 * Admin writes: the same guard. Their CSRF token, needed exactly when the session rides on
 * cookies, is checked by requireAuth like every other write (docs/decisions.md, CSRF).
 */
export const adminWriteGuard = adminGuard;

export const adminErrorResponses = {
  ...authErrorResponses,
  ...rateLimitedResponses,
  403: errorResponse(ErrorSchema, "Admin rights required"),
};
