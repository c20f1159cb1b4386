import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import type { Deps } from "../../deps";
import type { AuthContext } from "../../http/env";
import { isUuid } from "../../lib/ids";

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

/** Verifies signature, algorithm, issuer, audience and times; returns null for any bad token. */
export async function verifyAccessToken(
  deps: Deps,
  token: string,
): Promise<Omit<AuthContext, "via"> | null> {
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
      userId: payload.sub,
      sessionId: payload.sid,
      role: payload.role === "admin" ? "admin" : "user",
      isGuest: payload.guest === true,
    };
  } catch (error) {
    if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return null;
    throw error;
  }
}
