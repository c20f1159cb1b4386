import { spawnSync } from "node:child_process";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { randomEmail } from "../support/client";
import { runToExit, startNodeServer } from "../support/node-server";

const dataDir = await mkdtemp(join(tmpdir(), "ta-e2e-"));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

async function post(url: string, body: unknown) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe("npm start on the embedded defaults", () => {
  it("serves the API with no server and no key, and an account survives a restart", async () => {
    const email = randomEmail();
    const first = await startNodeServer({ DATA_DIR: dataDir });
    let token: string;
    try {
      const registered = await post(`${first.url}/api/v1/auth/register`, {
        email,
        password: "secret1",
      });
      expect(registered.status).toBe(201);
      token = registered.body.access_token;
      const docs = await fetch(`${first.url}/api/v1/openapi.json`);
      expect(docs.status).toBe(200);
      // The Node listener writes our request id (never the caller's) and security headers on
      // every response.
      const health = await fetch(`${first.url}/health`);
      expect(await health.json()).toEqual({ status: "ok" });
      expect(health.headers.get("x-content-type-options")).toBe("nosniff");
      for (const path of ["/health/ready", "/api/v1/auth/me", "/nope"]) {
        const res = await fetch(`${first.url}${path}`, { headers: { "X-Request-Id": "trace-1" } });
        expect(res.headers.get("x-request-id"), path).toMatch(/^[0-9a-f-]{36}$/);
        expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
        expect(res.headers.get("cache-control"), path).toBe("no-store");
      }
      const unauthorized = await fetch(`${first.url}/api/v1/auth/me`, {
        headers: { "X-Request-Id": "bad id with spaces" },
      });
      expect(unauthorized.status).toBe(401);
      expect(unauthorized.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
      expect(unauthorized.headers.get("www-authenticate")).toBe("Bearer");
    } finally {
      expect(await first.stop()).toBe(0);
    }
    // Generated secrets are kept with the data, owner-readable only.
    expect((await stat(join(dataDir, "secrets.json"))).mode & 0o777).toBe(0o600);

    // npm run admin:grant on the same embedded database, while no server holds it.
    const grant = spawnSync(
      process.execPath,
      ["--import", "tsx", "src/runtime/admin-grant.ts", email],
      {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "warn" },
        encoding: "utf8",
      },
    );
    expect(grant.status, grant.stderr).toBe(0);
    expect(grant.stdout).toMatch(/is now an admin/);

    const second = await startNodeServer({ DATA_DIR: dataDir });
    try {
      const me = await fetch(`${second.url}/api/v1/auth/me`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(me.status).toBe(200);
      expect(((await me.json()) as any).email).toBe(email);
      const login = await post(`${second.url}/api/v1/auth/login`, { email, password: "secret1" });
      expect(login.status).toBe(200);
      expect(login.body.user.credits).toBe(30);
      expect(login.body.user.role).toBe("admin");
      const users = await fetch(`${second.url}/api/v1/admin/users`, {
        headers: { Authorization: `Bearer ${login.body.access_token}` },
      });
      expect(users.status).toBe(200);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });

  it("refuses to start on a bad setting, naming it without a stack trace", async () => {
    const { code, output } = await runToExit({ DATA_DIR: dataDir, PORT: "not-a-port" });
    expect(code).toBe(1);
    expect(output).toMatch(/PORT/);
    expect(output).not.toMatch(/at .*\.ts:\d+/);
  });

  it("refuses to invent secrets in production", async () => {
    const { code, output } = await runToExit({
      DATA_DIR: dataDir,
      APP_ENV: "production",
      PORT: "0",
    });
    expect(code).toBe(1);
    expect(output).toMatch(/JWT_SECRET/);
  });
});
