import type { Context, MiddlewareHandler } from "hono";
import { sha256Hex } from "../lib/crypto";
import type { AppEnv } from "./env";
import { ApiError, validationError } from "./errors";
import { markMiddleware } from "./route-traits";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * Idempotency-Key on billable POSTs (IETF httpapi draft), scoped per user; runs after
 * requireAuth. A repeat gets the first outcome again and charges nothing; the same key with
 * another body is 422; a repeat while the first is still running is 409. Only successful
 * outcomes are kept: after an error (402 before a top-up, a provider failure whose charge was
 * refunded) the key is freed, so the client's retry with the same key can succeed.
 */
/**
 * Claims (user, Idempotency-Key) for a request described by `requestText` (method, path and
 * body): a malformed key is 422, a key used for a different request 422, one whose first request
 * is still running 409; otherwise the claim (a fresh one, or the stored outcome to replay).
 */
export async function claimRequestKey(c: Context<AppEnv>, key: string, requestText: string) {
  if (!KEY_PATTERN.test(key)) {
    throw validationError([
      {
        loc: ["header", IDEMPOTENCY_HEADER],
        msg: "1 to 255 visible ASCII characters",
        type: "value_error",
      },
    ]);
  }
  const deps = c.get("deps");
  const claim = await deps.idempotencyKeys.claim(deps, {
    userId: c.get("auth").userId,
    key,
    requestHash: await sha256Hex(requestText),
  });
  if (claim.kind === "mismatch") {
    const detail = "This Idempotency-Key was used for a different request";
    throw validationError(
      [{ loc: ["header", IDEMPOTENCY_HEADER], msg: detail, type: "idempotency_key_reused" }],
      detail,
      "idempotency_conflict",
    );
  }
  if (claim.kind === "in_flight") {
    throw new ApiError(409, "A request with this Idempotency-Key is still being processed", {
      code: "idempotency_conflict",
      headers: { "Retry-After": "1" },
    });
  }
  return claim;
}

export const idempotentRequest: MiddlewareHandler<AppEnv> = async function idempotentRequest(
  c,
  next,
) {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  if (key === undefined) return next();
  const deps = c.get("deps");
  const userId = c.get("auth").userId;
  const claim = await claimRequestKey(
    c,
    key,
    `${c.req.method} ${c.req.path}\n${await c.req.text()}`,
  );
  if (claim.kind === "replay") {
    c.header("Idempotent-Replayed", "true");
    return c.json(claim.body as object, claim.status as 200);
  }
  try {
    await next();
  } catch (error) {
    await deps.idempotencyKeys.release(deps, { userId, key });
    throw error;
  }
  // hono's compose catches handler errors into c.error and c.res: read the outcome from there.
  const status = c.res.status;
  if (status >= 300 || c.error) {
    await deps.idempotencyKeys.release(deps, { userId, key });
    return;
  }
  const body = c.res.headers.get("content-type")?.includes("json")
    ? await c.res.clone().json()
    : null;
  await deps.idempotencyKeys.complete(deps, { userId, key, status, body });
};
markMiddleware(idempotentRequest, "idempotency-key");

/** A route's own middleware that honours the key (a wrapper, or one calling claimRequestKey). */
export const honoursIdempotencyKey = <T extends MiddlewareHandler<AppEnv>>(middleware: T): T =>
  markMiddleware(middleware, "idempotency-key");
