import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "./env";
import { validationError, zodIssues } from "./errors";

/** Every router shares one validation hook, so every 422 has the same shape. */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    strict: false,
    defaultHook: (result) => {
      if (!result.success) throw validationError(zodIssues(result.target, result.error));
    },
  });
}

export type AppRouter = ReturnType<typeof createRouter>;
