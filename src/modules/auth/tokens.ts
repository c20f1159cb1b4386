import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { isUuid } from "../../lib/ids";
import type { AuthContext, Deps } from "../../ports";

const ALGORITHM = "HS256";

export interface AccessTokenSubject {
  userId: string;
  sessionId: string;
  role: "user" | "admin";
  isGuest: boolean;
}

export async function signAccessToken(deps: Deps, subject: AccessTokenSubject): Promise<string> {
  const now = Math.floor(deps.clock.now().getTime() / 1000);
  return new SignJWT({ sid: subject.sessionId, role: subject.role, guest: subject.isGuest })
    .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
    .setSubject(subject.userId)
    .setIssuer(deps.config.JWT_ISSUER)
    .setAudience(deps.config.JWT_AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + deps.config.ACCESS_TOKEN_TTL_SECONDS)
    .sign(deps.keys.jwt);
}

type VerifiedToken = Omit<AuthContext, "via">;

/**
 * Tokens that passed full verification, until they expire. Clients send the same token for its
 * whole lifetime, so this saves a Web Crypto HMAC per request. Keyed by the signing key so two
 * apps in one process never share entries; bounded, oldest entries go first.
 */
const verifiedTokens = new WeakMap<
  CryptoKey,
  Map<string, { auth: VerifiedToken; expMs: number }>
>();
const VERIFIED_CACHE_SIZE = 10_000;

/**
 * Verifies signature, algorithm, issuer, audience and times; null for any bad token. A token
 * verified before comes back as a plain value (no promise on the hot path), a new one as a
 * promise.
 */
export function verifyAccessToken(
  deps: Deps,
  token: string,
): VerifiedToken | null | Promise<VerifiedToken | null> {
  let cache = verifiedTokens.get(deps.keys.jwt);
  if (!cache) {
    cache = new Map();
    verifiedTokens.set(deps.keys.jwt, cache);
  }
  const hit = cache.get(token);
  if (hit) {
    if (hit.expMs > deps.clock.now().getTime()) return hit.auth;
    cache.delete(token);
  }
  return verifyWithJose(deps, token).then((auth) => {
    if (auth) {
      if (cache.size >= VERIFIED_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(token, auth);
    }
    return auth?.auth ?? null;
  });
}

async function verifyWithJose(
  deps: Deps,
  token: string,
): Promise<{ auth: VerifiedToken; expMs: number } | null> {
  try {
    const { payload } = await jwtVerify(token, deps.keys.jwt, {
      algorithms: [ALGORITHM],
      issuer: deps.config.JWT_ISSUER,
      audience: deps.config.JWT_AUDIENCE,
      currentDate: deps.clock.now(),
      requiredClaims: ["sub", "exp", "iat", "sid"],
    });
    if (!isUuid(payload.sub) || !isUuid(payload.sid)) return null;
    return {
      auth: {
        userId: payload.sub,
        sessionId: payload.sid,
        role: payload.role === "admin" ? "admin" : "user",
        isGuest: payload.guest === true,
      },
      expMs: (payload.exp as number) * 1000,
    };
  } catch (error) {
    if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return null;
    throw error;
  }
}
