import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { errorBody } from "../../http/errors";
import { clientRequestId, SECURITY_HEADERS, serverRequestId } from "../../http/response-headers";
import type { DrainState } from "./drain";

const LIVENESS_BODY = JSON.stringify({ status: "ok" });
// Liveness is polled by orchestrators, not browsers: the headers that matter and no more.
const LIVENESS_HEADERS = {
  "content-type": "application/json",
  "content-length": String(Buffer.byteLength(LIVENESS_BODY)),
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
};

/** Sets header `name` (lower case) on the request to `value`, or removes it, whatever was sent. */
function pinHeader(req: IncomingMessage, name: string, value: string | undefined) {
  if (req.headers[name] === value) return;
  if (value === undefined) delete req.headers[name];
  else req.headers[name] = value;
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) {
    if (raw[i]!.toLowerCase() === name) raw.splice(i, 2);
  }
  if (value !== undefined) raw.push(name, value);
}

/**
 * Makes the request carry the ids the app will read (requestIdFromRuntime): ours as
 * x-request-id, the caller's own (checked) as x-client-request-id, never the caller's as ours.
 */
function pinRequestIds(req: IncomingMessage, id: string) {
  const sent = req.headers["x-request-id"];
  pinHeader(req, "x-client-request-id", clientRequestId(typeof sent === "string" ? sent : null));
  pinHeader(req, "x-request-id", id);
}

/**
 * Makes every 413, and every answer once the server is stopping, say `Connection: close`, and
 * so close the socket once it is sent.
 * - A body over the limit is refused before it is read: the rest may still be on the wire
 *   (megabytes, or a chunked upload with no end), and reading it to keep the connection would
 *   spend what the limit saves. Without this Node answered `Connection: keep-alive` and then
 *   dropped the socket anyway whenever the unread rest did not arrive at once, so a client
 *   reusing it failed.
 * - While stopping, a kept-alive client would otherwise send its next request on a connection
 *   that is about to go away; told `close`, it opens a new one (to another instance).
 */
function closeWhenDone(res: ServerResponse, drain: DrainState | undefined) {
  const writeHead = res.writeHead;
  res.writeHead = function writeHeadClosing(this: ServerResponse, statusCode: number, ...rest) {
    if (statusCode === 413 || drain?.draining) this.setHeader("Connection", "close");
    return writeHead.call(this, statusCode, ...(rest as []));
  } as typeof res.writeHead;
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
export function createNodeListener(app: RequestListener, drain?: DrainState): RequestListener {
  return function nodeListener(req: IncomingMessage, res: ServerResponse) {
    // Arrived on a kept-alive connection while stopping: answered, then the connection closes.
    if (drain?.draining) res.shouldKeepAlive = false;
    if (req.url === "/health" && (req.method === "GET" || req.method === "HEAD")) {
      res.writeHead(200, LIVENESS_HEADERS);
      res.end(req.method === "HEAD" ? undefined : LIVENESS_BODY);
      return;
    }
    const id = serverRequestId();
    res.setHeader("X-Request-Id", id);
    for (const [name, value] of SECURITY_HEADERS) res.setHeader(name, value);
    pinRequestIds(req, id);
    closeWhenDone(res, drain);
    app(req, res);
  };
}

/** What Node's parser refused, as Node's own default handler maps it, with our `{detail}`. */
function clientErrorStatus(code: string | undefined): [number, string, string] {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return [431, "Request Header Fields Too Large", "Request headers too large"];
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return [413, "Payload Too Large", "Request body too large"];
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return [408, "Request Timeout", "Request timed out"];
    default:
      return [400, "Bad Request", "Malformed HTTP request"];
  }
}

/**
 * The server's `clientError` handler: a request Node's HTTP parser refuses (a malformed request
 * line, headers past the size limit) never reaches the app, and Node's default answer is a bare
 * status line. Clients and proxies get the same JSON error envelope as every other answer.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex) {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  // A reset peer cannot be answered; a response already started cannot be replaced.
  if (err.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, reason, detail] = clientErrorStatus(err.code);
  const body = JSON.stringify(errorBody(status, detail));
  const headers = [
    `HTTP/1.1 ${status} ${reason}`,
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: close",
    ...SECURITY_HEADERS.map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${headers.join("\r\n")}\r\n\r\n${body}`);
}
