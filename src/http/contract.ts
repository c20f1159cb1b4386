import type { OpenAPIHono, RouteConfig } from "@hono/zod-openapi";
import {
  authErrorResponses,
  ErrorSchema,
  errorResponse,
  errorResponses,
  InsufficientCreditsSchema,
  rateLimitedResponses,
  retryAfterHeader,
  unavailableResponse,
} from "./errors";
import { IDEMPOTENCY_HEADER } from "./idempotency";
import { bearerSecurity } from "./openapi";
import { operationIdOf } from "./operation-ids";
import { refusesUnknownQuery } from "./query";
import { ROUTE_TRAITS, type RouteTrait } from "./route-traits";

type Registry = OpenAPIHono["openAPIRegistry"];
type Responses = RouteConfig["responses"];
type Response = Responses[string];

const IDEMPOTENCY_PARAMETER = "IdempotencyKey";

/**
 * Makes every operation in the registry say what the server enforces and can answer, from the
 * one place that knows (the middleware marks, http/route-traits.ts), so no route file has to
 * repeat it and a route added later is described the same way: its operationId, its security
 * (public routes say so), its Idempotency-Key header, and the error bodies the shared middleware
 * and onError send. Call after every router is mounted and before declareCookieSessions.
 */
export function describeOperations(registry: Registry) {
  registry.registerComponent("parameters", IDEMPOTENCY_PARAMETER, {
    name: IDEMPOTENCY_HEADER,
    in: "header",
    required: false,
    description:
      "Makes a retry safe: a repeat with the same key gets the first outcome again and is " +
      "charged once (1 to 255 visible ASCII characters, scoped to the caller).",
    schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
  });
  const routes = registry.definitions.flatMap((d) => (d.type === "route" ? [d.route] : []));
  const apiOperations = new Set(routes.map((route) => `${route.method} ${route.path}`));
  const operationIds = new Map<string, string>();
  for (const route of routes) {
    const traits: Set<RouteTrait> =
      (route as { [ROUTE_TRAITS]?: Set<RouteTrait> })[ROUTE_TRAITS] ?? new Set();
    nameOperation(route, apiOperations);
    const taken = operationIds.get(route.operationId!);
    if (taken) throw new Error(`operationId ${route.operationId} of ${taken} and ${route.path}`);
    operationIds.set(route.operationId!, route.path);
    declareSecurity(route, traits);
    if (traits.has("idempotency-key")) declareIdempotencyKey(route);
    route.responses = errorResponsesOf(route, traits);
  }
}

/**
 * The rule's name (http/operation-ids.ts); a path outside /api/v1 that repeats one inside it
 * (the `/agent` aliases older clients call) is the same operation: deprecated, named `legacy…`.
 */
function nameOperation(route: RouteConfig, apiOperations: Set<string>) {
  const canonical = `/api/v1${route.path}`;
  const alias =
    !route.path.startsWith("/api/") && apiOperations.has(`${route.method} ${canonical}`);
  route.operationId ??= operationIdOf(route.method, route.path);
  if (!alias) return;
  const name = route.operationId;
  route.operationId = `legacy${name.charAt(0).toUpperCase()}${name.slice(1)}`;
  route.deprecated = true;
  route.description = [
    `Alias of \`${route.method.toUpperCase()} ${canonical}\`, kept for older clients.`,
    route.description,
  ]
    .filter(Boolean)
    .join(" ");
}

/** requireAuth means the bearer token (cookies are added by declareCookieSessions); none, public. */
function declareSecurity(route: RouteConfig, traits: Set<RouteTrait>) {
  if (route.security !== undefined) return;
  route.security = traits.has("auth") ? bearerSecurity : [];
}

function declareIdempotencyKey(route: RouteConfig) {
  const reference = { $ref: `#/components/parameters/${IDEMPOTENCY_PARAMETER}` };
  route.parameters = [...(route.parameters ?? []), reference] as RouteConfig["parameters"];
}

const takesInput = (route: RouteConfig) => {
  const request = route.request;
  return Boolean(request?.body || request?.params || request?.query || request?.headers);
};

const withRetryAfter = (response: Response): Response =>
  "$ref" in response
    ? response
    : { ...response, headers: { ...retryAfterHeader, ...response.headers } };

/** The budget a rate-limited route reports (http/rate-limit.ts), as IETF's RateLimit draft. */
const rateLimitHeaders = {
  "RateLimit-Limit": {
    description: "Requests the caller's budget allows in its window",
    schema: { type: "integer" as const, minimum: 0 },
  },
  "RateLimit-Remaining": {
    description: "Requests left in the current window",
    schema: { type: "integer" as const, minimum: 0 },
  },
  "RateLimit-Reset": {
    description: "Seconds until the window resets",
    schema: { type: "integer" as const, minimum: 0 },
  },
};

const contentDispositionHeader = {
  "Content-Disposition": {
    description: 'An attachment and its file name (`attachment; filename="..."`)',
    schema: { type: "string" as const },
  },
};

/** Media types served as downloads, always with a Content-Disposition naming the file. */
const FILE_TYPES = new Set([
  "application/pdf",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "text/csv",
  "application/zip",
  "application/octet-stream",
]);

const servesFile = (response: Response) =>
  !("$ref" in response) && Object.keys(response.content ?? {}).some((t) => FILE_TYPES.has(t));

/**
 * Headers the shared code writes, declared on the responses that carry them: the limiter's
 * budget on every answer it lets through and on its 429, a download's Content-Disposition.
 */
function declareHeaders(responses: Responses, traits: Set<RouteTrait>) {
  for (const [status, response] of Object.entries(responses)) {
    if ("$ref" in response) continue;
    let headers = response.headers;
    if (traits.has("rate-limited") && (status.startsWith("2") || status === "429")) {
      headers = { ...rateLimitHeaders, ...headers };
    }
    if (servesFile(response)) headers = { ...contentDispositionHeader, ...headers };
    if (headers !== response.headers) responses[status] = { ...response, headers };
  }
}

/** The route's own responses, completed with what the shared middleware and onError send. */
function errorResponsesOf(route: RouteConfig, traits: Set<RouteTrait>): Responses {
  const own = route.responses;
  const added: Responses = {};
  if (traits.has("auth")) added[401] = authErrorResponses[401];
  if (route.request?.body) added[413] = errorResponse(ErrorSchema, "Request body too large");
  // Every route refuses query parameters it does not read (http/query.ts), bar signed callbacks.
  if (takesInput(route) || traits.has("idempotency-key") || refusesUnknownQuery(route.path)) {
    added[422] = errorResponses[422];
  }
  if (traits.has("rate-limited")) added[429] = rateLimitedResponses[429];
  added[500] = errorResponses[500];
  // The database or limiter may be down for any route but the liveness probe.
  if (route.path !== "/health") added[503] = unavailableResponse;
  const responses: Responses = { ...added, ...own };
  if (responses[402] && !("$ref" in responses[402])) {
    responses[402] = {
      description: responses[402].description ?? "Not enough credits",
      content: { "application/json": { schema: InsufficientCreditsSchema } },
    };
  }
  if (traits.has("idempotency-key")) {
    const inFlight = "A request with this Idempotency-Key is still being processed";
    const own409 = own[409];
    if (!own409 || "$ref" in own409) {
      responses[409] = withRetryAfter(own409 ?? errorResponse(ErrorSchema, inFlight));
    } else {
      // The route's own conflict shares the status with a repeat still in flight.
      const description = /idempotency-key/i.test(own409.description ?? "")
        ? own409.description
        : `${own409.description}; or: ${inFlight}`;
      responses[409] = withRetryAfter({ ...own409, description });
    }
  }
  for (const status of ["429", "503"]) {
    if (responses[status]) responses[status] = withRetryAfter(responses[status]);
  }
  declareHeaders(responses, traits);
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}
