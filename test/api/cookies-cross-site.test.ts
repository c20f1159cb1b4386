import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../../src/config";
import { call, randomEmail, randomIp } from "../support/client";
import { createTestContext } from "../support/harness";

/** The Set-Cookie line of each cookie, by name. */
function cookieLines(res: Response): Record<string, string> {
  return Object.fromEntries(res.headers.getSetCookie().map((line) => [line.split("=")[0], line]));
}

type App = Awaited<ReturnType<typeof createTestContext>>["app"];

async function registerWithBody(app: App) {
  const { status, res, body } = await call(app, "/api/v1/auth/register", {
    json: { email: randomEmail(), password: "correct horse battery" },
    ip: randomIp(),
  });
  expect(status).toBe(201);
  return { lines: cookieLines(res), body };
}
const register = async (app: App) => (await registerWithBody(app)).lines;

describe("COOKIE_SAMESITE", () => {
  it("defaults to Lax session cookies and a Strict refresh cookie (same-site frontends)", async () => {
    const { app } = await createTestContext();
    const lines = await register(app);
    expect(lines.access_token).toMatch(/SameSite=Lax/);
    expect(lines.csrf_token).toMatch(/SameSite=Lax/);
    expect(lines.refresh_token).toMatch(/SameSite=Strict/);
  });

  it("none: every session cookie is SameSite=None; Secure, logout clears them alike", async () => {
    const { app } = await createTestContext({
      env: { COOKIE_SAMESITE: "none", COOKIE_SECURE: "true" },
    });
    const { lines, body } = await registerWithBody(app);
    for (const name of ["access_token", "refresh_token", "csrf_token"]) {
      expect(lines[name], name).toMatch(/SameSite=None/);
      expect(lines[name], name).toMatch(/; Secure/);
    }
    // A cross-site browser only applies a deletion that is itself SameSite=None; Secure.
    const out = await call(app, "/api/v1/auth/logout", {
      method: "POST",
      token: body.access_token,
      csrf: body.csrf_token,
      json: { refresh_token: body.refresh_token },
    });
    expect(out.status).toBeLessThan(300);
    const cleared = cookieLines(out.res);
    for (const name of ["access_token", "refresh_token", "csrf_token"]) {
      expect(cleared[name], name).toMatch(/Max-Age=0/);
      expect(cleared[name], name).toMatch(/SameSite=None/);
      expect(cleared[name], name).toMatch(/; Secure/);
    }
  });

  it("strict: every cookie is Strict", async () => {
    const { app } = await createTestContext({ env: { COOKIE_SAMESITE: "strict" } });
    const lines = await register(app);
    for (const name of ["access_token", "refresh_token", "csrf_token"]) {
      expect(lines[name], name).toMatch(/SameSite=Strict/);
    }
  });

  it("refuses none without Secure cookies, in one line naming the setting", () => {
    for (const env of [
      { COOKIE_SAMESITE: "none" },
      { COOKIE_SAMESITE: "none", COOKIE_SECURE: "false" },
      { COOKIE_SAMESITE: "none", COOKIE_SECURE: "auto", APP_ENV: "development" },
    ]) {
      let error: unknown;
      try {
        parseConfig(env);
      } catch (e) {
        error = e;
      }
      expect(error, JSON.stringify(env)).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        "COOKIE_SAMESITE: none requires Secure cookies (set COOKIE_SECURE=true)",
      ]);
    }
    expect(parseConfig({ COOKIE_SAMESITE: "none", COOKIE_SECURE: "true" }).COOKIE_SAMESITE).toBe(
      "none",
    );
    expect(() => parseConfig({ COOKIE_SAMESITE: "sometimes" })).toThrow(/COOKIE_SAMESITE/);
  });
});
