import { chmod, mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { randomEmail } from "../support/client";
import { freePort, runToExit, startNodeServer } from "../support/node-server";

const dataDir = await mkdtemp(join(tmpdir(), "ta-lock-"));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

/** Paths under the data directory that group or others may use. */
async function openToOthers(): Promise<string[]> {
  const entries = await readdir(dataDir, { withFileTypes: true, recursive: true });
  const paths = entries.map((e) => join(e.parentPath, e.name));
  const modes = await Promise.all(paths.map(async (p) => [p, (await stat(p)).mode] as const));
  return modes.filter(([, mode]) => mode & 0o077).map(([p, mode]) => `${p} ${mode.toString(8)}`);
}

/** Runs one of the npm scripts' entry files on this data directory to its end. */
const runScript = (script: string, args: string[] = []) =>
  runToExit({ DATA_DIR: dataDir }, script, args);

async function json(url: string, init: { body?: unknown; token?: string } = {}) {
  const res = await fetch(url, {
    method: init.body === undefined ? "GET" : "POST",
    headers: {
      "Content-Type": "application/json",
      ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe("the embedded data directory: one owner, owner-only files", () => {
  it("refuses admin:grant, db:migrate and a second server while the server runs, then grants once it stops", async () => {
    const email = randomEmail();
    const password = "secret12";
    const server = await startNodeServer({ DATA_DIR: dataDir });
    const pid = server.process.pid!;
    try {
      const registered = await json(`${server.url}/api/v1/auth/register`, {
        body: { email, password },
      });
      expect(registered.status).toBe(201);
      // Hashes, customers and the ledger are on disk: owner only (PGlite unpacks them 0666).
      expect(await openToOthers()).toEqual([]);

      for (const [script, args] of [
        ["src/runtime/admin-grant.ts", [email]],
        ["src/runtime/migrate-cli.ts", []],
      ] as const) {
        const refused = await runScript(script, [...args]);
        expect(refused.code, refused.output).toBe(1);
        expect(refused.output).toContain(`in use by process ${pid}`);
        expect(refused.output).not.toMatch(/is now an admin|migrations applied/);
      }
      const second = await runToExit({ DATA_DIR: dataDir, PORT: String(await freePort()) });
      expect(second.code).toBe(1);
      expect(second.output).toContain(`in use by process ${pid}`);

      // The running server was not disturbed and the grant did not happen behind its back.
      const login = await json(`${server.url}/api/v1/auth/login`, { body: { email, password } });
      expect(login.status).toBe(200);
      const admin = await json(`${server.url}/api/v1/admin/users`, {
        token: login.body.access_token,
      });
      expect(admin.status).toBe(403);
    } finally {
      expect(await server.stop()).toBe(0);
    }

    // Stopped cleanly: the lock is gone, and the grant goes through and lasts.
    await expect(stat(join(dataDir, "pglite.lock"))).rejects.toThrow();
    const granted = await runScript("src/runtime/admin-grant.ts", [email]);
    expect(granted.code, granted.output).toBe(0);
    expect(granted.output).toContain(`${email} is now an admin`);

    const restarted = await startNodeServer({ DATA_DIR: dataDir });
    try {
      const login = await json(`${restarted.url}/api/v1/auth/login`, {
        body: { email, password },
      });
      const admin = await json(`${restarted.url}/api/v1/admin/users`, {
        token: login.body.access_token,
      });
      expect(admin.status).toBe(200);
    } finally {
      // A crash leaves the lock behind; its process is gone, so the next start takes it over.
      restarted.process.kill("SIGKILL");
      await new Promise((resolve) => restarted.process.once("exit", resolve));
    }
    expect((await stat(join(dataDir, "pglite.lock"))).isFile()).toBe(true);
    // A database directory someone opened up is tightened again at start-up (DATA_DIR itself
    // may be the operator's folder and is left as it is).
    await chmod(join(dataDir, "pglite"), 0o755);
    await chmod(join(dataDir, "pglite", "PG_VERSION"), 0o644);
    const afterCrash = await startNodeServer({ DATA_DIR: dataDir });
    try {
      const login = await json(`${afterCrash.url}/api/v1/auth/login`, {
        body: { email, password },
      });
      expect(login.status).toBe(200);
      expect(await openToOthers()).toEqual([]);
    } finally {
      await afterCrash.stop();
    }
  });
});
