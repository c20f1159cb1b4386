import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { accessLog } from "./http/access-log";
import { mountApiDocs } from "./http/api-docs";
import { publicCache } from "./http/caching";
import { type BrotliEncoder, compression } from "./http/compression";
import { describeOperations } from "./http/contract";
import { ACCESS_COOKIE } from "./http/cookies";
import { CSRF_HEADER, declareCookieSessions } from "./http/csrf";
import type { AppEnv } from "./http/env";
import { ApiError, handleError } from "./http/errors";
import { refuseControlCharacters } from "./http/input-guard";
import { methodNotAllowed } from "./http/method-not-allowed";
import { documentTags, finishDocument } from "./http/openapi-document";
import { requestMetrics } from "./http/request-metrics";
import {
  dedupeVary,
  EXPOSED_HEADERS,
  requestIdFromRuntime,
  responseHeaders,
} from "./http/response-headers";
import type { AppRouter } from "./http/router";
import { createHealthRoutes } from "./modules/health/routes";
import { IMPORT_PATHS } from "./modules/imports/paths";
import type { Deps } from "./ports";

export const OPENAPI_PATH = "/api/v1/openapi.json";
/** Routes that take spreadsheet uploads and enforce their own, larger, body limit. */
const UPLOAD_PATHS = new Set<string>(IMPORT_PATHS);
/** Callbacks verified over their exact bytes by the sender's signature. */
const SIGNED_PATHS = new Set<string>([
  "/api/v1/payments/callback",
  "/api/v1/payments/stripe/webhook",
  "/api/v1/webhooks/wechat",
]);

export interface AppOptions {
  /** The Node listener writes the request id and security headers itself (see listener.ts). */
  headersSetByRuntime?: boolean;
  /** The runtime's brotli encoder (Node's zlib); without one, responses are gzip only. */
  brotli?: BrotliEncoder;
  /** Workers: the runtime compresses a body whose response names a Content-Encoding. */
  runtimeEncodes?: boolean;
}

/** The app around the given routers: middleware, health, OpenAPI document, docs, errors. */
export function buildApp(deps: Deps, routers: readonly AppRouter[], options: AppOptions = {}) {
  const app = new OpenAPIHono<AppEnv>({ strict: false });

  // First, so its time covers every middleware; only when something counts requests.
  if (deps.metrics.observesRequests) app.use(requestMetrics(deps.metrics));
  app.use(options.headersSetByRuntime ? requestIdFromRuntime : responseHeaders);
  app.use(async function injectDeps(c, next) {
    c.set("deps", deps);
    await next();
  });
  if (deps.config.LOG_LEVEL === "debug" || deps.config.LOG_LEVEL === "info") app.use(accessLog);
  // Outside CORS and the routes, so it sees every finished response (and the ETag to weaken).
  app.use(compression({ brotli: options.brotli, runtimeEncodes: options.runtimeEncodes }));
  const corsAllowList = cors({
    origin: (origin) => (deps.config.CORS_ORIGINS.includes(origin) ? origin : null),
    allowMethods: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
    allowHeaders: ["Content-Type", "Authorization", CSRF_HEADER, "Idempotency-Key", "X-Request-Id"],
    // What a frontend's script must read (response-headers.ts says why each).
    exposeHeaders: EXPOSED_HEADERS,
    credentials: true,
    maxAge: 600,
  });
  // Only cross-origin browser requests carry Origin; the rest skip CORS work entirely (no
  // Vary needed on no-store answers; the cacheable ones say Vary: Origin, see caching.ts).
  app.use(async function corsForBrowsers(c, next) {
    if (c.req.header("Origin") === undefined) return next();
    const preflight = await corsAllowList(c, next);
    // hono/cors says Allow-Credentials to every origin; only a listed one may read that. (A
    // preflight's answer is merged with c.res's headers, so both lose it.)
    if (!(preflight ?? c.res).headers.has("Access-Control-Allow-Origin")) {
      for (const res of [preflight, c.res]) res?.headers.delete("Access-Control-Allow-Credentials");
    }
    // hono/cors appends Origin to a Vary the cacheable routes already gave it (caching.ts).
    for (const res of [preflight, c.res]) if (res) dedupeVary(res.headers);
    return preflight;
  });
  const limitBody = bodyLimit({
    maxSize: deps.config.BODY_LIMIT_BYTES,
    onError: () => {
      throw new ApiError(413, "Request body too large");
    },
  });
  // Reading the body stream of a GET would build a full Request on Node for nothing; spreadsheet
  // uploads carry their own 10 MB limit on their routes.
  app.use(async function limitRequestBody(c, next) {
    const method = c.req.method;
    if (method === "GET" || method === "HEAD" || method === "OPTIONS") return next();
    if (UPLOAD_PATHS.has(c.req.path)) return next();
    return limitBody(c, next);
  });
  // Uploads carry their own limit (the guard would buffer a body before it applies), and signed
  // callbacks must be taken as their sender signed them: a payer's name with a control
  // character refused here would be retried until the provider gives up on us.
  app.use(
    refuseControlCharacters(
      (path) =>
        UPLOAD_PATHS.has(path) || SIGNED_PATHS.has(path) || path.startsWith("/api/v1/jobs/"),
    ),
  );

  // The OpenAPI document is the same for everyone and large: cacheable, revalidated by ETag.
  app.use(OPENAPI_PATH, publicCache());

  app.route("/", createHealthRoutes());
  for (const router of routers) app.route("/", router);

  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "csrfToken", {
    type: "apiKey",
    in: "header",
    name: CSRF_HEADER,
  });
  // A browser session: the same access token in its httpOnly cookie (requireAuth reads both).
  app.openAPIRegistry.registerComponent("securitySchemes", "cookieAuth", {
    type: "apiKey",
    in: "cookie",
    name: ACCESS_COOKIE,
  });
  describeOperations(app.openAPIRegistry);
  declareCookieSessions(app.openAPIRegistry);
  const documentConfig = {
    openapi: "3.1.0",
    info: {
      title: "Trade assistant service",
      version: "1.0.0",
      description: "Backend API for export sellers: accounts, AI tools, customers, credits.",
      // Not open source: an SPDX reference to the terms rather than an SPDX licence.
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    // Paths carry their /api/v1 prefix, so the server is the origin this document came from.
    servers: [{ url: "/", description: "The server answering this document" }],
    tags: documentTags(app.openAPIRegistry),
  };
  // Built on first request, then kept: the routes cannot change once the app is built.
  let document: ReturnType<typeof app.getOpenAPI31Document> | undefined;
  app.get(OPENAPI_PATH, function openApiDocument(c) {
    document ??= finishDocument(app.getOpenAPI31Document(documentConfig));
    return c.json(document);
  });
  mountApiDocs(app, OPENAPI_PATH);

  // 404, or 405 with Allow when the path is served under other methods (read once, on a miss).
  app.notFound(methodNotAllowed(app));
  app.onError(handleError);
  return app;
}

export type App = ReturnType<typeof buildApp>;
