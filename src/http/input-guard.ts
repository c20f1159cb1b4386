import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env";
import { type ValidationIssue, validationError } from "./errors";

/**
 * NUL and the other C0 controls no text of this API has a use for; tab, LF and CR stay (notes
 * and messages have lines). PostgreSQL cannot store NUL in text at all, so before this rule a
 * NUL anywhere reached the database as a 500.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its job
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;
const MAX_DEPTH = 64;

const issue = (loc: (string | number)[]): ValidationIssue => ({
  loc,
  msg: "Text must not contain NUL or other control characters",
  type: "string_control_character",
});

/** The location of the first string (value or key) holding a control character, or null. */
function controlIn(value: unknown, loc: (string | number)[]): (string | number)[] | null {
  if (typeof value === "string") return CONTROL.test(value) ? loc : null;
  if (value === null || typeof value !== "object" || loc.length > MAX_DEPTH) return null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = controlIn(item, [...loc, index]);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    if (CONTROL.test(key)) return [...loc, key];
    const found = controlIn(item, [...loc, key]);
    if (found) return found;
  }
  return null;
}

function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Throws the 422 for a control character in the path or in a query key or value. */
function refusePathAndQuery(rawPath: string, url: string): void {
  // hono hands the path decoded where it could; what it left encoded is decoded here.
  if (CONTROL.test(rawPath) || (rawPath.includes("%") && CONTROL.test(decoded(rawPath)))) {
    throw validationError([issue(["path"])], issue([]).msg);
  }
  const queryAt = url.indexOf("?");
  if (queryAt < 0) return;
  for (const [key, value] of new URLSearchParams(url.slice(queryAt + 1))) {
    if (CONTROL.test(key) || CONTROL.test(value)) {
      throw validationError([issue(["query", key])], issue([]).msg);
    }
  }
}

/**
 * One input rule at the edge, before any route: a control character in the path, a query
 * parameter or a JSON body is a 422 naming where it is (`path`, `query`, `body` locations).
 * `skip` names paths left to their own checks (uploads, signed callbacks).
 */
export function refuseControlCharacters(
  skip: (path: string) => boolean,
): MiddlewareHandler<AppEnv> {
  return async function inputGuard(c, next) {
    const url = c.req.url;
    const method = c.req.method;
    const reads = method === "GET" || method === "HEAD" || method === "OPTIONS";
    // Most requests: a read with nothing encoded and no query has nothing to look at.
    if (reads && !url.includes("%") && !url.includes("?")) return next();
    const rawPath = c.req.path;
    if (skip(rawPath)) return next();
    refusePathAndQuery(rawPath, url);
    if (!reads) {
      const type = c.req.header("Content-Type") ?? "";
      if (/^application\/(.+\+)?json\b/i.test(type)) {
        // Read as text (hono caches it): signed callbacks verify these exact bytes later, which
        // a cached json() would hand them re-serialised. Malformed JSON is the validator's 422.
        const found = controlIn(parsedOrUndefined(await c.req.text()), ["body"]);
        if (found) throw validationError([issue(found)], issue([]).msg);
      }
    }
    await next();
  };
}
