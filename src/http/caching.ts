import type { MiddlewareHandler } from "hono";
import { etag, RETAINED_304_HEADERS } from "hono/etag";
import type { AppEnv } from "./env";
import { REQUEST_ID_HEADER, SECURITY_HEADERS } from "./response-headers";

/** Seconds the public lists and the OpenAPI document may be reused without asking again. */
const PUBLIC_MAX_AGE_SECONDS = 300;

/**
 * For the few public, user-independent GETs (the OpenAPI document, the package and plan lists):
 * `Cache-Control: public, max-age`, a strong ETag over the body, and 304 on a matching
 * If-None-Match. Everything else stays `no-store` (response-headers.ts). `Vary: Origin`
 * because the CORS headers of the same URL differ by Origin, and a shared cache must not serve
 * one origin's answer to another.
 */
export function publicCache(maxAgeSeconds = PUBLIC_MAX_AGE_SECONDS): MiddlewareHandler<AppEnv> {
  const validate = etag({
    // A 304 keeps what identifies and protects the answer, not only the caching headers.
    retainedHeaders: [
      ...RETAINED_304_HEADERS,
      REQUEST_ID_HEADER,
      ...SECURITY_HEADERS.map(([name]) => name).filter((name) => name !== "Cache-Control"),
    ],
  });
  return async function publicCache(c, next) {
    await validate(c, async () => {
      await next();
      if (c.res.status !== 200) return;
      c.res.headers.set("Cache-Control", `public, max-age=${maxAgeSeconds}`);
      const vary = c.res.headers.get("Vary");
      if (!vary?.toLowerCase().includes("origin")) {
        c.res.headers.set("Vary", vary ? `${vary}, Origin` : "Origin");
      }
    });
  };
}
