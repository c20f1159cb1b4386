import { z } from "@hono/zod-openapi";
import { AGENT_RUN_JOB } from "../agent/service";

export const JobParam = z.object({
  name: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: "name", in: "path" }, example: AGENT_RUN_JOB }),
});

export const JobDoneSchema = z.object({ ok: z.literal(true) });
