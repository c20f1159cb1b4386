import { createHmac, timingSafeEqual } from "node:crypto";

// The ceilings' HS256 check with node:crypto (parse, HMAC-SHA256, timingSafeEqual,
// alg/exp/iss/aud/sub/sid): the work the app's bearer check does, with no library.
const secret = Buffer.from(process.env.JWT_SECRET ?? "", "utf8");
const issuer = process.env.JWT_ISSUER || "trade-assistant";
const audience = process.env.JWT_AUDIENCE || "trade-assistant-api";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Claims {
  sub?: unknown;
  sid?: unknown;
  exp?: unknown;
  iss?: unknown;
  aud?: unknown;
}

export function verifyJwt(token: string): Claims | null {
  const first = token.indexOf(".");
  const second = token.indexOf(".", first + 1);
  if (first < 0 || second < 0 || token.indexOf(".", second + 1) >= 0) return null;
  try {
    const header = JSON.parse(Buffer.from(token.slice(0, first), "base64url").toString("utf8"));
    if (header?.alg !== "HS256") return null;
    const expected = createHmac("sha256", secret).update(token.slice(0, second)).digest();
    const given = Buffer.from(token.slice(second + 1), "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const claims = JSON.parse(
      Buffer.from(token.slice(first + 1, second), "base64url").toString("utf8"),
    ) as Claims;
    const now = Math.floor(Date.now() / 1000);
    if (typeof claims.exp !== "number" || claims.exp <= now) return null;
    if (claims.iss !== issuer) return null;
    const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (!aud.includes(audience)) return null;
    if (typeof claims.sub !== "string" || !UUID.test(claims.sub)) return null;
    if (typeof claims.sid !== "string" || !UUID.test(claims.sid)) return null;
    return claims;
  } catch {
    return null;
  }
}
