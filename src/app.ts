import { OpenAPIHono } from "@hono/zod-openapi";
import { Scalar } from "@scalar/hono-api-reference";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import type { Deps } from "./deps";
import { accessLog } from "./http/access-log";
import { CSRF_HEADER } from "./http/csrf";
import type { AppEnv } from "./http/env";
import { ApiError, handleError } from "./http/errors";
import { requestIdFromRuntime, responseHeaders } from "./http/response-headers";
import type { AppRouter } from "./http/router";
import { createAdminRoutes } from "./modules/admin/routes";
import { createAgentRoutes } from "./modules/agent/routes";
import { createAiAdminRoutes } from "./modules/ai-admin/routes";
import { createAiDraftRoutes } from "./modules/ai-drafts/routes";
import { createAssistantRoutes } from "./modules/assistant/routes";
import { createAuthRoutes } from "./modules/auth/routes";
import { createCreditAdminRoutes } from "./modules/credits/admin-routes";
import { createCreditRoutes } from "./modules/credits/routes";
import { createCustomerRoutes } from "./modules/customers/routes";
import { createSearchProviderAdminRoutes } from "./modules/discovery/admin-routes";
import { createDiscoveryRoutes } from "./modules/discovery/routes";
import { createExchangeRoutes } from "./modules/exchange/routes";
import { createGrowthAdminRoutes } from "./modules/growth/admin-routes";
import { createGrowthRoutes } from "./modules/growth/routes";
import { createHealthRoutes } from "./modules/health/routes";
import { createImportExportRoutes, IMPORT_PATHS } from "./modules/imports/routes";
import { createJobRoutes } from "./modules/jobs/routes";
import { createMarketingRoutes } from "./modules/marketing/routes";
import { createNotificationRoutes } from "./modules/notifications/routes";
import { createPaymentAdminRoutes } from "./modules/payments/admin-routes";
import { createPaymentRoutes } from "./modules/payments/routes";
import { createProductRoutes } from "./modules/products/routes";
import { createQuotationRoutes } from "./modules/quotations/routes";
import { createTranslateRoutes } from "./modules/translate/routes";
import { createUsageRoutes } from "./modules/usage/routes";
import { createUserRoutes } from "./modules/users/routes";
import { createWechatWebhookRoutes } from "./modules/wechat-webhook/routes";

/** One deployable per group (functions/*.ts); the Node server mounts them all. */
export const ROUTE_GROUPS = {
  auth: () => [createAuthRoutes(), createUserRoutes(), createUsageRoutes()],
  api: () => [
    // Literal /customers/import and /customers/export before /customers/:id.
    createImportExportRoutes(),
    createCustomerRoutes(),
    createProductRoutes(),
    createQuotationRoutes(),
    createExchangeRoutes(),
    createNotificationRoutes(),
    createTranslateRoutes(),
    createAssistantRoutes(),
    createMarketingRoutes(),
    createAiDraftRoutes(),
    createDiscoveryRoutes(),
    createAgentRoutes(),
  ],
  admin: () => [
    createAdminRoutes(),
    createCreditAdminRoutes(),
    createPaymentAdminRoutes(),
    createGrowthAdminRoutes(),
    createAiAdminRoutes(),
    createSearchProviderAdminRoutes(),
  ],
  payments: () => [createCreditRoutes(), createPaymentRoutes(), createGrowthRoutes()],
  webhooks: () => [createWechatWebhookRoutes()],
  jobs: () => [createJobRoutes()],
  cron: () => [],
} satisfies Record<string, () => AppRouter[]>;

export type RouteGroup = keyof typeof ROUTE_GROUPS;
export const ALL_GROUPS = Object.keys(ROUTE_GROUPS) as RouteGroup[];

export const OPENAPI_PATH = "/api/v1/openapi.json";
/** Routes that take spreadsheet uploads and enforce their own, larger, body limit. */
const UPLOAD_PATHS = new Set<string>(IMPORT_PATHS);

export interface AppOptions {
  /** The Node listener writes the request id and security headers itself (see listener.ts). */
  headersSetByRuntime?: boolean;
}

export function createApp(
  deps: Deps,
  groups: readonly RouteGroup[] = ALL_GROUPS,
  options: AppOptions = {},
) {
  const app = new OpenAPIHono<AppEnv>({ strict: false });

  app.use(options.headersSetByRuntime ? requestIdFromRuntime : responseHeaders);
  app.use(async function injectDeps(c, next) {
    c.set("deps", deps);
    await next();
  });
  if (deps.config.LOG_LEVEL === "debug" || deps.config.LOG_LEVEL === "info") app.use(accessLog);
  const corsAllowList = cors({
    origin: (origin) => (deps.config.CORS_ORIGINS.includes(origin) ? origin : null),
    allowMethods: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
    allowHeaders: ["Content-Type", "Authorization", CSRF_HEADER, "Idempotency-Key", "X-Request-Id"],
    exposeHeaders: [
      "X-Request-Id",
      "Retry-After",
      "RateLimit-Limit",
      "RateLimit-Remaining",
      "RateLimit-Reset",
    ],
    credentials: true,
    maxAge: 600,
  });
  // Only cross-origin browser requests carry Origin; the rest skip CORS work entirely (no
  // Vary needed: every response is Cache-Control: no-store).
  app.use(async function corsForBrowsers(c, next) {
    if (c.req.header("Origin") === undefined) return next();
    return corsAllowList(c, next);
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

  app.route("/", createHealthRoutes());
  for (const group of groups) for (const router of ROUTE_GROUPS[group]()) app.route("/", router);

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
  app.doc31(OPENAPI_PATH, {
    openapi: "3.1.0",
    info: {
      title: "Trade assistant service",
      version: "1.0.0",
      description: "Backend API for export sellers: accounts, AI tools, customers, credits.",
    },
  });
  app.get("/docs", Scalar({ url: OPENAPI_PATH, pageTitle: "Trade assistant API" }));

  app.notFound((c) => c.json({ detail: "Not found" }, 404));
  app.onError(handleError);
  return app;
}

export type App = ReturnType<typeof createApp>;
