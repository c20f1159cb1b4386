import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env";

/** One JSON line per request, carrying the request id the response header also has. */
export const accessLog: MiddlewareHandler<AppEnv> = async function accessLog(c, next) {
  const started = performance.now();
  await next();
  c.get("deps").logger.info("request", {
    request_id: c.get("requestId"),
    method: c.req.method,
    path: c.req.path,
    status: c.res.status,
    ms: Math.round((performance.now() - started) * 10) / 10,
  });
};
