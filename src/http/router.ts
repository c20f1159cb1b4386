import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "./env";
import { validationError, zodIssues } from "./errors";
import { unknownQueryGuard } from "./query";
import { ROUTE_TRAITS, traitsOfMiddleware } from "./route-traits";

/**
 * Every router shares one validation hook, so every 422 has the same shape, and one refusal of
 * query parameters the route does not read (http/query.ts); and every route
 * it registers carries what its middleware enforces (auth, Idempotency-Key, rate limits) to
 * the OpenAPI description (http/contract.ts), which the middleware list itself never reaches.
 */
export function createRouter() {
  const router = new OpenAPIHono<AppEnv>({
    strict: false,
    defaultHook: (result) => {
      if (!result.success) throw validationError(zodIssues(result.target, result.error));
    },
  });
  const register = router.openapi;
  router.openapi = ((route, handler, hook) => {
    const own = route.middleware;
    const guard = unknownQueryGuard(route.request?.query, route.path);
    const middleware = guard ? [...(Array.isArray(own) ? own : own ? [own] : []), guard] : own;
    return register(
      { ...route, middleware, [ROUTE_TRAITS]: traitsOfMiddleware(own) },
      handler,
      hook,
    );
  }) as typeof register;
  return router;
}

export type AppRouter = ReturnType<typeof createRouter>;
