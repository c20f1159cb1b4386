import { z } from "@hono/zod-openapi";
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

/** A route's only success: 200 with this JSON body. */
export const okResponse = <T extends z.ZodType>(schema: T, description: string) => ({
  200: jsonResponse(schema, description),
});

/** 404 with the error body; `description` says what was not found (the caller's, usually). */
export const notFoundResponse = (description = "Not found") => ({
  404: errorResponse(ErrorSchema, description),
});

/** The `{id}` path parameter every resource route takes: a UUID. */
export const IdParam = z.object({
  id: z.uuid({ error: "Not a valid id" }).openapi({ param: { name: "id", in: "path" } }),
});

export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { "application/json": { schema } },
});

/** Admin routes: a valid token, admin rights from the database, 30 requests a minute. */
export const adminGuard = [requireAuth, requireAdmin, limitByUser(RATE_LIMIT_RULES.admin)];
/**
 * Admin writes: the same guard. Their CSRF token, needed exactly when the session rides on
 * cookies, is checked by requireAuth like every other write
 * (docs/adr/0058-one-csrf-rule-for-every-write.md).
 */
export const adminWriteGuard = adminGuard;

export const adminErrorResponses = {
  ...authErrorResponses,
  ...rateLimitedResponses,
  403: errorResponse(ErrorSchema, "Admin rights required"),
};
