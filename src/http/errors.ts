import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { databaseUnavailable, describeDbError, pgErrorCode } from "../lib/db-errors";
import { type Dependency, outageLog } from "../lib/logger";
import { HasherBusyError } from "../lib/password";
import { type PlanLimitHit, planLimitHit } from "../lib/plans";
import { RateLimiterUnavailableError } from "../providers/ratelimit/types";
import type { AppEnv } from "./env";

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/**
 * The machine-readable `code` every error body carries beside `detail` (docs/API.md, error
 * codes; docs/adr/0093-one-http-error-contract.md). A client branches on the code, never on the
 * English text. Add a code here, with a line in docs/API.md, before throwing it: the OpenAPI
 * document lists exactly these as the enum of `Error.code`.
 */
export const ERROR_CODES = [
  "bad_request",
  "unauthorized",
  "insufficient_credits",
  "forbidden",
  "csrf_missing",
  "csrf_mismatch",
  "csrf_invalid",
  "admin_required",
  "guest_not_allowed",
  "account_disabled",
  "feature_not_in_plan",
  "plan_limit_reached",
  "member_limit_reached",
  "signature_invalid",
  "not_found",
  "method_not_allowed",
  "conflict",
  "idempotency_conflict",
  "payload_too_large",
  "validation_failed",
  "unknown_currency",
  "no_exchange_rate",
  "rate_limited",
  "internal_error",
  "service_unavailable",
  /** A bounded operation hit its time limit (a discovery search past 120 s). */
  "timed_out",
  "quota_exhausted",
  /** A quotation with a line priced 0 (or unmatched) cannot be sent (`lines`: their positions). */
  "quotation_unpriced",
  /** The mail provider did not accept a mail a member sent (502; `reason` says why). */
  "mail_failed",
  /** A draft (edit it) or an already superseded quotation cannot be revised (`status`). */
  "quotation_not_revisable",
  /** A proforma invoice is made of an accepted quotation only (`status`). */
  "quotation_not_accepted",
  /** A PDF of right-to-left text it cannot shape (`script`, `field`; ADR 0105). */
  "unsupported_script",
  /** A charge named a quote that is not the caller's or does not exist (404; ADR 0108). */
  "quote_not_found",
  /** The quote was already spent by a charge that stands (409). */
  "quote_used",
  /** The quote's time ran out (409): ask for a new one. */
  "quote_expired",
  /** The quote prices another operation (409). */
  "quote_wrong_operation",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The code of an error nobody named more precisely: one per status. */
function defaultErrorCode(status: number): ErrorCode {
  switch (status) {
    case 401:
      return "unauthorized";
    case 402:
      return "insufficient_credits";
    case 403:
      return "forbidden";
    case 404:
      return "not_found";
    case 405:
      return "method_not_allowed";
    case 409:
      return "conflict";
    case 413:
      return "payload_too_large";
    case 422:
      return "validation_failed";
    case 429:
      return "rate_limited";
    default:
      if (status >= 500) return status === 500 ? "internal_error" : "service_unavailable";
      return "bad_request";
  }
}

/** An error body: `detail` for people, `code` for programs, then what the refusal adds. */
export const errorBody = (
  status: number,
  detail: string,
  code?: ErrorCode,
  extra?: Record<string, unknown>,
) => ({ detail, code: code ?? defaultErrorCode(status), ...extra });

/** The one error the app throws on purpose: a status and a message safe to show a user. */
export class ApiError extends HTTPException {
  readonly detail: string;
  readonly code: ErrorCode;
  readonly extra: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    status: ContentfulStatusCode,
    detail: string,
    options: {
      code?: ErrorCode;
      extra?: Record<string, unknown>;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(status, { message: detail });
    this.detail = detail;
    this.code = options.code ?? defaultErrorCode(status);
    this.extra = options.extra;
    this.headers = options.headers;
  }
}

export const badRequest = (detail: string, code?: ErrorCode) => new ApiError(400, detail, { code });
export const unauthorized = (detail = "Not authenticated", code?: ErrorCode) =>
  new ApiError(401, detail, { code, headers: { "WWW-Authenticate": "Bearer" } });
export const forbidden = (detail = "Forbidden", code?: ErrorCode) =>
  new ApiError(403, detail, { code });
export const notFound = (detail = "Not found") => new ApiError(404, detail);
export const conflict = (detail: string, code?: ErrorCode) => new ApiError(409, detail, { code });
export const unavailable = (detail: string) =>
  new ApiError(503, detail, { headers: { "Retry-After": "5" } });

/** A 422 with the same `errors` list the validation hook produces. */
export function validationError(
  errors: ValidationIssue[],
  detail = "Validation failed",
  code: ErrorCode = "validation_failed",
) {
  return new ApiError(422, detail, { code, extra: { errors } });
}

/**
 * Where a value came from, in FastAPI's words (`body`, `query`, `path`, `header`, `cookie`),
 * which clients already parse: zod-openapi names its validator targets `json`, `form`, `param`.
 */
const LOCATION_OF_TARGET: Record<string, string> = { json: "body", form: "body", param: "path" };
export const issueLocation = (target: string) => LOCATION_OF_TARGET[target] ?? target;

/** Maps zod issues to FastAPI-style `{loc, msg, type}` entries. */
export function zodIssues(target: string, error: z.ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({
    loc: [issueLocation(target), ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))],
    msg: issue.message,
    type: issue.code,
  }));
}

export const ErrorSchema = z
  .object({
    detail: z.string().openapi({ example: "Not found", description: "For people; may change" }),
    code: z.enum(ERROR_CODES).openapi({
      example: "not_found",
      description: "Stable and machine-readable: branch on this, never on `detail`",
    }),
    request_id: z.string().optional(),
  })
  // Some refusals say more for a client to act on (a plan limit's `limit`, `max` and `plans`,
  // an exhausted quota's `reason` and `resets_at`); the route's description names them.
  .catchall(z.unknown())
  .openapi("Error");

export const ValidationErrorSchema = ErrorSchema.extend({
  errors: z.array(
    z.object({
      loc: z.array(z.union([z.string(), z.number()])),
      msg: z.string(),
      type: z.string(),
    }),
  ),
}).openapi("ValidationError");

/**
 * 402: the operation's price and the caller's balance, so a client can offer a top-up; with
 * code `member_limit_reached`, the member's monthly credit limit refused it (issue #22): `limit`
 * and `used` (this UTC month) say by how much.
 */
export const InsufficientCreditsSchema = ErrorSchema.extend({
  required: z.number().int().openapi({ description: "Credits the operation costs" }),
  available: z.number().int().openapi({
    description: "Credits the caller can spend now: the balance, or less under a monthly limit",
  }),
  balance: z.number().int().openapi({ description: "Credits the caller's organisation has" }),
  limit: z
    .number()
    .int()
    .optional()
    .openapi({ description: "member_limit_reached: the member's monthly credit limit" }),
  used: z
    .number()
    .int()
    .optional()
    .openapi({ description: "member_limit_reached: credits the member used this UTC month" }),
}).openapi("InsufficientCredits");

const json = (schema: z.ZodType, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/** A response header telling the client how many seconds to wait before trying again. */
export const retryAfterHeader = {
  "Retry-After": {
    description: "Seconds to wait before retrying",
    schema: { type: "integer" as const, minimum: 0 },
  },
};
/** 503: a dependency (database, limiter, provider) is down; retry after the given seconds. */
export const unavailableResponse = {
  ...json(ErrorSchema, "Temporarily unavailable (see Retry-After)"),
  headers: retryAfterHeader,
};

/** Error responses shared by every route's OpenAPI description. */
export const errorResponses = {
  422: json(ValidationErrorSchema, "Request validation failed"),
  500: json(ErrorSchema, "Unexpected failure (generic message and a request id)"),
} as const;
export const authErrorResponses = {
  401: json(ErrorSchema, "Missing or invalid access token"),
  ...errorResponses,
} as const;
export const csrfErrorResponses = {
  ...authErrorResponses,
  403: json(ErrorSchema, "Missing or invalid CSRF token"),
} as const;
export const rateLimitedResponses = {
  429: { ...json(ErrorSchema, "Rate limited (see Retry-After)"), headers: retryAfterHeader },
  503: unavailableResponse,
} as const;
export const errorResponse = json;

/** Validator failures hono raises itself (bad JSON, wrong content type) become our 422. */
function validatorFailure(err: HTTPException): ValidationIssue[] | undefined {
  if (err.status === 400 && err.message.startsWith("Malformed JSON")) {
    return [{ loc: ["body"], msg: "Malformed JSON in request body", type: "json_invalid" }];
  }
  if (err.status === 415) {
    return [{ loc: ["body"], msg: "Request body must be application/json", type: "content_type" }];
  }
  return undefined;
}

/** A reached plan limit's code: the members limit has its own (docs/API.md names it). */
export const planLimitCode = (limit: string): ErrorCode =>
  limit === "members" ? "member_limit_reached" : "plan_limit_reached";

/** A plan limit reached in SQL (SQLSTATE PL001): 403 naming it, its max and the plans above. */
async function planLimitResponse(c: Context<AppEnv>, hit: PlanLimitHit): Promise<Response> {
  const deps = c.get("deps");
  const denial = await deps.entitlements.describePlanLimit(deps, hit).catch(() => ({
    detail: `A limit of your plan is reached (${hit.limit}: ${hit.max})`,
    limit: hit.limit,
    max: hit.max,
    plans: [] as string[],
  }));
  const { detail, ...extra } = denial;
  return c.json(errorBody(403, detail, planLimitCode(hit.limit), extra), 403);
}

/** Seconds a client waits before retrying when the database or limiter is unreachable. */
const OUTAGE_RETRY_AFTER_SECONDS = 5;

/** A lost dependency, as opposed to a bug: which one, and the driver's cause (no statement). */
function outageOf(err: Error): { dependency: Dependency; cause: string } | undefined {
  if (err instanceof RateLimiterUnavailableError) {
    const cause = err.cause instanceof Error ? err.cause.message : undefined;
    // Store errors may quote a command; its first line names the failure (ECONNREFUSED ...).
    return { dependency: "limiter", cause: (cause ?? err.message).split("\n")[0]!.slice(0, 200) };
  }
  const cause = databaseUnavailable(err);
  return cause ? { dependency: "database", cause } : undefined;
}

/** drizzle's wrapper, or a driver error carrying a SQLSTATE. */
function isDbError(err: Error): boolean {
  return err.message.startsWith("Failed query") || pgErrorCode(err) !== undefined;
}

/** The single onError: known errors keep their status; anything else is a generic 500. */
export function handleError(err: Error, c: Context<AppEnv>): Response | Promise<Response> {
  const requestId = c.get("requestId");
  if (err instanceof ApiError) {
    if (err.headers) for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
    return c.json(errorBody(err.status, err.detail, err.code, err.extra), err.status);
  }
  const limitHit = planLimitHit(err);
  if (limitHit) return planLimitResponse(c, limitHit);
  if (err instanceof HasherBusyError) {
    c.header("Retry-After", "2");
    return c.json(errorBody(503, "Server is busy, try again shortly"), 503);
  }
  const outage = outageOf(err);
  if (outage) {
    const deps = c.get("deps");
    if (deps) {
      outageLog(deps.logger).down(outage.dependency, deps.clock.now().getTime(), {
        cause: outage.cause,
        request_id: requestId,
        path: c.req.path,
      });
    }
    c.header("Retry-After", String(OUTAGE_RETRY_AFTER_SECONDS));
    return c.json(errorBody(503, "Service temporarily unavailable, try again shortly"), 503);
  }
  if (err instanceof HTTPException) {
    const issues = validatorFailure(err);
    if (issues) return c.json(errorBody(422, issues[0]!.msg, undefined, { errors: issues }), 422);
    if (err.status === 413) return c.json(errorBody(413, "Request body too large"), 413);
    if (err.status < 500) {
      return c.json(errorBody(err.status, statusText(err.status)), err.status);
    }
  }
  // A failed statement's message quotes its SQL and parameters (users' data): log what
  // describeDbError keeps instead, and no stack, which would repeat the message.
  const failedStatement = isDbError(err);
  c.get("deps")?.logger.error("unhandled error", {
    request_id: requestId,
    method: c.req.method,
    path: c.req.path,
    error: err.name,
    ...(failedStatement ? describeDbError(err) : { message: err.message, stack: err.stack }),
  });
  return c.json(errorBody(500, "Internal server error", undefined, { request_id: requestId }), 500);
}

function statusText(status: number): string {
  const texts: Record<number, string> = {
    400: "Bad request",
    401: "Not authenticated",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    409: "Conflict",
    429: "Too many requests",
  };
  return texts[status] ?? "Request failed";
}
