import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env";

/**
 * One JSON line per request, carrying our request id (the response header's) and, when the
 * caller sent a well-formed one, the caller's beside it as `client_request_id`.
 */
export const accessLog: MiddlewareHandler<AppEnv> = async function accessLog(c, next) {
  const started = performance.now();
  await next();
  const client = c.get("clientRequestId");
  c.get("deps").logger.info("request", {
    request_id: c.get("requestId"),
    ...(client ? { client_request_id: client } : {}),
    method: c.req.method,
    path: c.req.path,
    status: c.res.status,
    ms: Math.round((performance.now() - started) * 10) / 10,
  });
};
