import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env";

export const REQUEST_ID_HEADER = "X-Request-Id";

/**
 * The response headers OWASP's REST Security Cheat Sheet lists for JSON APIs, plus
 * Referrer-Policy and CORP. Browser-page headers (XSS filter, download options, DNS prefetch)
 * do nothing for JSON.
 */
export const SECURITY_HEADERS: readonly (readonly [string, string])[] = [
  ["Cache-Control", "no-store"],
  ["Content-Security-Policy", "frame-ancestors 'none'"],
  ["Strict-Transport-Security", "max-age=15552000; includeSubDomains"],
  ["X-Content-Type-Options", "nosniff"],
  ["X-Frame-Options", "DENY"],
  ["Referrer-Policy", "no-referrer"],
  ["Cross-Origin-Resource-Policy", "same-origin"],
];

/**
 * Response headers a cross-origin script may read (Access-Control-Expose-Headers): the request
 * id, a download's file name, the validator for If-None-Match, the rate-limit budget, a started
 * job's Location, whether an Idempotency-Key repeat was replayed, and a 405's Allow.
 */
export const EXPOSED_HEADERS = [
  REQUEST_ID_HEADER,
  "Content-Disposition",
  "ETag",
  "Retry-After",
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  "Location",
  "Idempotent-Replayed",
  "Allow",
];

/** `Vary` with each name once (case-insensitive), in first-seen order. */
export function dedupeVary(headers: Headers) {
  const vary = headers.get("Vary");
  if (!vary?.includes(",")) return;
  const seen = new Map<string, string>();
  for (const name of vary.split(",")) {
    const trimmed = name.trim();
    if (trimmed && !seen.has(trimmed.toLowerCase())) seen.set(trimmed.toLowerCase(), trimmed);
  }
  const names = [...seen.values()];
  headers.set("Vary", names.includes("*") ? "*" : names.join(", "));
}

/** Where the Node listener hands the caller's (checked) id to the app; see requestIdFromRuntime. */
const CLIENT_REQUEST_ID_HEADER = "X-Client-Request-Id";

/**
 * The caller's X-Request-Id, kept for correlation only when it is short and plain (letters,
 * digits and `_ - . : =`, at most 128): nothing else reaches a log line or a stored row, so a
 * caller cannot write a line break, a quote or a megabyte into either. Never used as our id
 * (docs/adr/0088-streams-end-with-their-session.md, "Request ids").
 */
export function clientRequestId(incoming: string | undefined | null): string | undefined {
  return incoming && incoming.length <= 128 && /^[\w.:=-]+$/.test(incoming) ? incoming : undefined;
}

/**
 * The server's own request id: a fresh UUID for every request, whatever the caller sent. It is
 * what the response's X-Request-Id, the access log, a 500's body and the admin audit row carry,
 * so no caller can make two requests share one or point an audit row at another's.
 */
export const serverRequestId = (): string => crypto.randomUUID();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Request id and security headers, set before the handler so they are part of the response it
 * builds (hono's secureHeaders() rewrites the finished response instead).
 */
export const responseHeaders: MiddlewareHandler<AppEnv> = async function responseHeaders(c, next) {
  const id = serverRequestId();
  c.set("requestId", id);
  c.set("clientRequestId", clientRequestId(c.req.header(REQUEST_ID_HEADER)));
  c.header(REQUEST_ID_HEADER, id);
  for (const [name, value] of SECURITY_HEADERS) c.header(name, value);
  await next();
};

/**
 * For a runtime that already wrote these headers on the socket and put the ids on the request
 * (the Node listener: our id as X-Request-Id, the caller's checked one as X-Client-Request-Id,
 * both replacing whatever the caller sent under those names): only record them. On
 * @hono/node-server, setting any header from Hono moves every response off its fast path
 * (measured: /me at 0.75 of its ceiling).
 */
export const requestIdFromRuntime: MiddlewareHandler<AppEnv> = async function requestIdFromRuntime(
  c,
  next,
) {
  // The listener always pins a UUID; the check only guards a runtime that forgot to.
  const pinned = c.req.header(REQUEST_ID_HEADER);
  c.set("requestId", pinned && UUID.test(pinned) ? pinned : serverRequestId());
  c.set("clientRequestId", clientRequestId(c.req.header(CLIENT_REQUEST_ID_HEADER)));
  await next();
};
