import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { App } from "../../src/app";
import { call, randomEmail, randomIp, registerUser } from "../support/client";
import { createTestContext } from "../support/harness";

// Issue #21: the CSRF token changed on every refresh while docs/deploy.md told cross-site
// frontends to keep the login's; once the access token expired (15 minutes) and a refresh set a
// new csrf cookie, the kept token was 403. Now a session has one token: login issues it, every
// refresh (and GET /auth/csrf) hands out the same value; a new login or a privilege change
// rotates it.

const ctx = await createTestContext();
const MINUTE = 60_000;
let offsetMs = 0;
/** The app with a clock the test moves forward, past access-token expiry. */
const app: App = await ctx.makeApp({ clock: { now: () => new Date(Date.now() + offsetMs) } });

/** A browser's cookie jar for the API's site. */
class Jar {
  cookies: Record<string, string> = {};
  take(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const index = pair!.indexOf("=");
      const name = pair!.slice(0, index).trim();
      if (/Max-Age=0/i.test(line)) delete this.cookies[name];
      else this.cookies[name] = decodeURIComponent(pair!.slice(index + 1));
    }
  }
}

async function browserCall(jar: Jar, path: string, options: Parameters<typeof call>[2] = {}) {
  const res = await call(app, path, { ...options, cookies: { ...jar.cookies } });
  jar.take(res.res);
  return res;
}

const login = (jar: Jar, email: string, password: string) =>
  browserCall(jar, "/api/v1/auth/login", { json: { email, password }, ip: randomIp() });

/** A C route: with the cookie session and the token as the X-CSRF-Token header. */
const patchMe = (jar: Jar, csrf: string, name: string) =>
  browserCall(jar, "/api/v1/users/me", { method: "PATCH", json: { name }, csrf });

describe("one CSRF token per session", () => {
  it("keeps the login's token valid through refreshes past the access token's 15 minutes", async () => {
    const user = await registerUser(app);
    const jar = new Jar();
    const signedIn = await login(jar, user.email, user.password);
    expect(signedIn.status).toBe(200);
    const loginToken = signedIn.body.csrf_token as string;
    expect(jar.cookies.csrf_token).toBe(loginToken);
    expect((await patchMe(jar, loginToken, "zero")).status).toBe(200);

    for (let round = 1; round <= 3; round++) {
      offsetMs += 16 * MINUTE;
      // The access token has expired: the frontend refreshes with its refresh cookie.
      expect((await patchMe(jar, loginToken, "expired")).status, `round ${round}`).toBe(401);
      const refreshed = await browserCall(jar, "/api/v1/auth/refresh", { json: {} });
      expect(refreshed.status).toBe(200);
      // The same token, in the body and in the cookie the refresh set.
      expect(refreshed.body.csrf_token).toBe(loginToken);
      expect(jar.cookies.csrf_token).toBe(loginToken);
      const written = await patchMe(jar, loginToken, `round ${round}`);
      expect(written.status, JSON.stringify(written.body)).toBe(200);
      expect(written.body.name).toBe(`round ${round}`);
      // A Bearer client with the refreshed access token and the kept token works as well.
      const bearer = await call(app, "/api/v1/users/me", {
        method: "PATCH",
        json: { name: `bearer ${round}` },
        token: refreshed.body.access_token,
        csrf: loginToken,
      });
      expect(bearer.status).toBe(200);
    }
    // GET /auth/csrf in the session hands out the same token too.
    const again = await browserCall(jar, "/api/v1/auth/csrf");
    expect(again.body.csrf_token).toBe(loginToken);
    expect(jar.cookies.csrf_token).toBe(loginToken);
  });

  it("rotates on login: after another account signs in, the old token fails", async () => {
    const a = await registerUser(app);
    const b = await registerUser(app);
    const jar = new Jar();
    const first = await login(jar, a.email, a.password);
    const tokenA = first.body.csrf_token as string;
    expect((await patchMe(jar, tokenA, "a")).status).toBe(200);
    const second = await login(jar, b.email, b.password);
    const tokenB = second.body.csrf_token as string;
    expect(tokenB).not.toBe(tokenA);
    // The browser now holds B's cookies: A's token is refused, with the cookie or as Bearer.
    const stale = await patchMe(jar, tokenA, "stale");
    expect(stale.status).toBe(403);
    const staleBearer = await call(app, "/api/v1/users/me", {
      method: "PATCH",
      json: { name: "stale" },
      token: second.body.access_token,
      csrf: tokenA,
    });
    expect(staleBearer.status).toBe(403);
    expect((await patchMe(jar, tokenB, "b")).status).toBe(200);
    // A second login of the same account is a new session with a new token.
    const jar2 = new Jar();
    const relogin = await login(jar2, b.email, b.password);
    expect(relogin.body.csrf_token).not.toBe(tokenB);
  });

  it("rotates on a privilege change: the refresh after a role change hands out a new token", async () => {
    const user = await registerUser(app, { email: randomEmail() });
    const jar = new Jar();
    const signedIn = await login(jar, user.email, user.password);
    const before = signedIn.body.csrf_token as string;
    await ctx.deps.db.execute(sql`update users set role = 'admin' where id = ${user.userId}`);
    const refreshed = await browserCall(jar, "/api/v1/auth/refresh", { json: {} });
    expect(refreshed.status).toBe(200);
    const after = refreshed.body.csrf_token as string;
    expect(after).not.toBe(before);
    expect(jar.cookies.csrf_token).toBe(after);
    const old = await call(app, "/api/v1/users/me", {
      method: "PATCH",
      json: { name: "old" },
      token: refreshed.body.access_token,
      csrf: before,
    });
    expect(old.status).toBe(403);
    expect((await patchMe(jar, after, "admin now")).status).toBe(200);
  });

  it("gives a pre-login visitor a fresh token that passes no protected route", async () => {
    const jar = new Jar();
    const one = await browserCall(jar, "/api/v1/auth/csrf");
    const two = await browserCall(jar, "/api/v1/auth/csrf");
    expect(one.body.csrf_token).not.toBe(two.body.csrf_token);
    const user = await registerUser(app);
    const refused = await call(app, "/api/v1/users/me", {
      method: "PATCH",
      json: { name: "x" },
      token: user.accessToken,
      csrf: one.body.csrf_token,
    });
    expect(refused.status).toBe(403);
  });
});
