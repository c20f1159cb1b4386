import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { type Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomEmail } from "../support/client";
import { type RunningServer, startNodeServer } from "../support/node-server";

/**
 * Real Chromium against the real server (`npm start`): a frontend on one site
 * (http://127.0.0.1:A) calling the API on another (http://localhost:B). Chromium treats
 * localhost as a secure context, so Secure cookies are kept over plain http there.
 *
 * Headless Chromium's profile blocks third-party cookies by default (the cookie is refused with
 * reason "UserPreferences", whatever its SameSite), as Safari, Firefox's strict mode and
 * incognito windows do: the profile here allows them, as a default Chrome profile does. The
 * cross-site mode can only work in such a browser (docs/deploy.md).
 */
const CHROMIUM = "/usr/bin/chromium";
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(`browser tests skipped: ${CHROMIUM} not found (install Chromium to run them)`);
}

/** What the frontend's script does: log in, read a CSRF token, then a protected write. */
async function crossSiteFlow(apiOrigin: string, email: string, password: string) {
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${apiOrigin}${path}`, { credentials: "include", ...init });
  const json = { "Content-Type": "application/json" };
  const register = await api("/api/v1/auth/register", {
    method: "POST",
    headers: json,
    body: JSON.stringify({ email, password }),
    credentials: "omit",
  });
  const login = await api("/api/v1/auth/login", {
    method: "POST",
    headers: json,
    body: JSON.stringify({ email, password }),
  });
  const me = await api("/api/v1/auth/me");
  const csrf = await api("/api/v1/auth/csrf");
  const { csrf_token } = (await csrf.json()) as { csrf_token: string };
  const write = await api("/api/v1/notifications/read-all", {
    method: "POST",
    headers: { "X-CSRF-Token": csrf_token },
  });
  const packages = await api("/api/v1/credits/packages");
  return {
    register: register.status,
    login: login.status,
    me: me.status,
    write: write.status,
    exposedEtag: packages.headers.get("ETag"),
  };
}

/** The frontend: a blank page on its own origin, where the flow runs. */
async function startFrontend(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<!doctype html><title>frontend</title><p>shop</p>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe.skipIf(!hasChromium)("in Chromium: a frontend on another site, and /docs", () => {
  let browser: Browser;
  let frontend: { server: Server; origin: string };
  const dirs: string[] = [];
  const servers: RunningServer[] = [];

  beforeAll(async () => {
    frontend = await startFrontend();
    const profile = await mkdtemp(join(tmpdir(), "ta-e2e-chromium-"));
    dirs.push(profile);
    await mkdir(join(profile, "Default"));
    await writeFile(
      join(profile, "Default", "Preferences"),
      JSON.stringify({ profile: { cookie_controls_mode: 0, block_third_party_cookies: false } }),
    );
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      userDataDir: profile,
      headless: true,
      args: ["--no-sandbox", "--disable-dev-shm-usage"],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all(servers.map((s) => s.stop()));
    await new Promise((resolve) => frontend?.server.close(resolve));
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  async function api(env: Record<string, string>) {
    const dir = await mkdtemp(join(tmpdir(), "ta-e2e-browser-"));
    dirs.push(dir);
    const server = await startNodeServer({
      DATA_DIR: dir,
      CORS_ORIGINS: frontend.origin,
      SCHEDULER_ENABLED: "false",
      ...env,
    });
    servers.push(server);
    return server.url.replace("127.0.0.1", "localhost");
  }

  async function runFlow(apiOrigin: string) {
    const page = await browser.newPage();
    try {
      await page.goto(frontend.origin);
      return await page.evaluate(crossSiteFlow, apiOrigin, randomEmail(), "correct horse battery");
    } finally {
      await page.close();
    }
  }

  it("COOKIE_SAMESITE=none: logs in with cookies and passes a CSRF-protected write", async () => {
    const origin = await api({ COOKIE_SAMESITE: "none", COOKIE_SECURE: "true" });
    expect(await runFlow(origin)).toEqual({
      register: 201,
      login: 200,
      me: 200,
      write: 200,
      exposedEtag: expect.stringMatching(/"/),
    });
  });

  it("the default Lax cookies: the login answers 200, then every call is 401", async () => {
    const origin = await api({});
    expect(await runFlow(origin)).toMatchObject({ register: 201, login: 200, me: 401, write: 401 });
  });

  it("/docs renders with the network cut off: nothing is fetched from another origin", async () => {
    const base = servers[0]?.url ?? (await api({})).replace("localhost", "127.0.0.1");
    const page = await browser.newPage();
    const foreign: string[] = [];
    const errors: string[] = [];
    try {
      await page.setRequestInterception(true);
      page.on("request", (request) => {
        if (request.url().startsWith(`${base}/`)) return void request.continue();
        foreign.push(request.url());
        void request.abort();
      });
      page.on("pageerror", (error) => errors.push(String(error)));
      await page.goto(`${base}/docs`);
      // Scalar renders the document's title once its script (integrity-checked) has run.
      await page.waitForFunction(
        () => document.body.textContent?.includes("Trade assistant service"),
        { timeout: 20_000 },
      );
      expect(foreign).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
