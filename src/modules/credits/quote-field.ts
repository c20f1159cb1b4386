import { z } from "@hono/zod-openapi";

/**
 * The body field every billable route takes (issue #24): a quote from POST /credits/quote for
 * this operation, charged exactly as quoted, or 409 `quote_expired` when it has run out.
 */
export const quoteIdField = z.string().uuid().optional().openapi({
  description:
    "A quote from POST /api/v1/credits/quote for this operation: charged exactly its credits; 409 when it expired",
});
