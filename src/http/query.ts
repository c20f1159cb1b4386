import { z } from "@hono/zod-openapi";

/** An optional `true` / `false` query parameter, read as a boolean (documented as one). */
export const booleanQuery = (description?: string) =>
  z
    .enum(["true", "false"])
    .transform((v) => v === "true")
    .optional()
    .openapi({ type: "boolean", ...(description ? { description } : {}) });
