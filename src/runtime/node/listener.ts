import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { acceptRequestId, SECURITY_HEADERS } from "../../http/response-headers";

const LIVENESS_BODY = JSON.stringify({ status: "ok" });
// Liveness is polled by orchestrators, not browsers: the headers that matter and no more.
const LIVENESS_HEADERS = {
  "content-type": "application/json",
  "content-length": String(Buffer.byteLength(LIVENESS_BODY)),
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
};

/** Makes the request carry the id the app will read, whatever the caller sent. */
function pinRequestId(req: IncomingMessage, id: string) {
  if (req.headers["x-request-id"] === id) return;
  req.headers["x-request-id"] = id;
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) {
    if (raw[i]!.toLowerCase() === "x-request-id") raw.splice(i, 2);
  }
  raw.push("X-Request-Id", id);
}

/**
 * The Node front of the app:
 * - request id and security headers go on the socket response here, where they cost a
 *   setHeader each, instead of through Hono, where any header set by a middleware moves
 *   @hono/node-server off its fast path (the app is built with `headersSetByRuntime`);
 * - `GET /health` (liveness) is answered here: a liveness probe should say the process can
 *   serve, and orchestrators poll it often enough that its cost matters. Readiness
 *   (`/health/ready`, which checks the database) and everything else go through the app.
 */
export function createNodeListener(app: RequestListener): RequestListener {
  return function nodeListener(req: IncomingMessage, res: ServerResponse) {
    if (req.url === "/health" && (req.method === "GET" || req.method === "HEAD")) {
      res.writeHead(200, LIVENESS_HEADERS);
      res.end(req.method === "HEAD" ? undefined : LIVENESS_BODY);
      return;
    }
    const id = acceptRequestId(req.headers["x-request-id"] as string | undefined);
    res.setHeader("X-Request-Id", id);
    for (const [name, value] of SECURITY_HEADERS) res.setHeader(name, value);
    pinRequestId(req, id);
    app(req, res);
  };
}
