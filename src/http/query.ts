import { z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env";
import { validationError } from "./errors";

/** An optional `true` / `false` query parameter, read as a boolean (documented as one). */
export const booleanQuery = (description?: string) =>
  z
    .enum(["true", "false"])
    .transform((v) => v === "true")
    .optional()
    .openapi({ type: "boolean", ...(description ? { description } : {}) });

/**
 * Added by hand to URLs by some clients (jQuery's `cache: false`): accepted and ignored on
 * every route (docs/adr/0093-one-http-error-contract.md).
 */
const CACHE_BUSTER = "_";

/**
 * Paths whose URL a third party writes (signed callbacks, webhooks, the job queue's deliveries
 * under /api/v1/jobs/): the sender may add parameters we do not read, and refusing them would
 * bounce a paid order's callback. Anchored: a user-facing path that merely contains `jobs`
 * (/api/v1/discovery/jobs) is not one of them.
 */
const OPEN_QUERY_PATH = /^\/api\/v1\/jobs\/|\/(callback|webhooks?)(\/|$)/;
export const refusesUnknownQuery = (path: string) => !OPEN_QUERY_PATH.test(path);

type SchemaDef = {
  type: string;
  shape?: Record<string, unknown>;
  in?: { _zod: { def: SchemaDef } };
  innerType?: { _zod: { def: SchemaDef } };
  options?: { _zod: { def: SchemaDef } }[];
  left?: { _zod: { def: SchemaDef } };
  right?: { _zod: { def: SchemaDef } };
  catchall?: { _zod: { def: SchemaDef } };
};

/** The parameter names a query schema reads; undefined when it takes any (a loose object). */
function parameterNames(def: SchemaDef, path: string): Set<string> | undefined {
  switch (def.type) {
    case "object":
      if (def.catchall && def.catchall._zod.def.type !== "never") return undefined;
      return new Set(Object.keys(def.shape ?? {}));
    case "pipe":
      return parameterNames(def.in!._zod.def, path);
    case "optional":
    case "default":
    case "readonly":
      return parameterNames(def.innerType!._zod.def, path);
    case "union": {
      const names = new Set<string>();
      for (const option of def.options ?? []) {
        const inner = parameterNames(option._zod.def, path);
        if (!inner) return undefined;
        for (const name of inner) names.add(name);
      }
      return names;
    }
    case "intersection": {
      const left = parameterNames(def.left!._zod.def, path);
      const right = parameterNames(def.right!._zod.def, path);
      return left && right ? new Set([...left, ...right]) : undefined;
    }
    default:
      throw new Error(`${path}: cannot list the parameters of a ${def.type} query schema`);
  }
}

/**
 * The unknown-parameter check of one route, or undefined when the route takes any: every
 * parameter of the request must be one the query schema names (or the cache-buster `_`), else
 * 422 `validation_failed` with `loc: ["query", name]`. A route without a query schema takes
 * none. Built once per route at registration; a request without a query string costs one
 * `indexOf`.
 */
export function unknownQueryGuard(
  query: z.ZodType | undefined,
  path: string,
): MiddlewareHandler<AppEnv> | undefined {
  if (!refusesUnknownQuery(path)) return undefined;
  const known = query
    ? parameterNames((query as unknown as { _zod: { def: SchemaDef } })._zod.def, path)
    : new Set<string>();
  if (!known) return undefined;
  known.add(CACHE_BUSTER);
  return async function refuseUnknownQuery(c, next) {
    const url = c.req.url;
    const start = url.indexOf("?");
    if (start !== -1 && start < url.length - 1) {
      const unknown = [...new URLSearchParams(url.slice(start)).keys()].filter(
        (name) => !known.has(name),
      );
      if (unknown.length > 0) {
        const issues = [...new Set(unknown)].map((name) => ({
          loc: ["query", name],
          msg: `Unknown query parameter "${name}"`,
          type: "unknown_parameter",
        }));
        throw validationError(issues, issues.map((issue) => issue.msg).join("; "));
      }
    }
    await next();
  };
}
