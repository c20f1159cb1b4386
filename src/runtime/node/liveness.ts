import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";

const BODY = JSON.stringify({ status: "ok" });
const HEADERS = {
  "content-type": "application/json",
  "content-length": String(Buffer.byteLength(BODY)),
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
};

/**
 * Answers `GET /health` (liveness) in the listener itself, before the framework: a liveness
 * probe should say the process can serve, and orchestrators poll it often enough that its cost
 * matters. Readiness (`/health/ready`, which checks the database) and everything else, including
 * `/health` with a query string, go through the app. Workers serve the app's own /health route.
 */
export function withLivenessFastPath(listener: RequestListener): RequestListener {
  return function livenessFastPath(req: IncomingMessage, res: ServerResponse) {
    if (req.url === "/health" && (req.method === "GET" || req.method === "HEAD")) {
      res.writeHead(200, HEADERS);
      res.end(req.method === "HEAD" ? undefined : BODY);
      return;
    }
    listener(req, res);
  };
}
