import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { Metrics } from "../ports";
import type { AppEnv } from "./env";

/** What a request matched, as registered ("/api/v1/customers/:id"): ids never become labels. */
function routePattern(c: Context): string {
  const routes = matchedRoutes(c);
  // Middleware is registered for ALL methods; the last route with a method is the endpoint,
  // whether it answered or a middleware before it did (401, 413, a preflight).
  for (let i = routes.length - 1; i >= 0; i--) {
    const route = routes[i]!;
    if (route.method !== "ALL") return route.path;
  }
  return "unmatched";
}

/**
 * Times every request through the app and hands method, route pattern and status to the
 * metrics port. Mounted first, so the time covers every middleware, and only when the port
 * listens (app-core.ts).
 */
export function requestMetrics(metrics: Metrics): MiddlewareHandler<AppEnv> {
  return async function requestMetrics(c, next) {
    const started = performance.now();
    await next();
    metrics.request(
      c.req.method,
      routePattern(c),
      c.res.status,
      (performance.now() - started) / 1000,
    );
  };
}
