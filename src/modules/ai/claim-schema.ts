import { z } from "@hono/zod-openapi";

/**
 * A figure an AI text states (issue #24, ai/claims.ts), checked against the catalogue: the one
 * shape of reply suggestions, follow-up drafts and the agent's outreach drafts.
 */
export const ClaimSchema = z
  .object({
    text: z.string().openapi({ description: "The figure as the text states it" }),
    kind: z.enum(["price", "spec", "moq", "lead_time"]),
    verified: z.boolean().openapi({
      description:
        "The catalogue's facts of the product it is about (or of any matched product) say the same",
    }),
    product_id: z.string().optional().openapi({ description: "The product the claim is about" }),
  })
  .openapi("Claim");
