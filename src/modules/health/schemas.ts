import { z } from "@hono/zod-openapi";
import { ErrorSchema } from "../../http/errors";

export const HealthSchema = z.object({ status: z.literal("ok") }).openapi("Health");

const DependencyState = z.enum(["ok", "unavailable"]);
export const NotReadySchema = ErrorSchema.extend({
  checks: z.object({ database: DependencyState, limiter: DependencyState }),
}).openapi("NotReady");
