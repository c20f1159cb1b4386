import { chmod, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { LockHolder } from "../../src/runtime/node/data-dir-lock";
import { randomEmail } from "../support/client";
import { freePort, type RunningServer, runToExit, startNodeServer } from "../support/node-server";

const dataDir = await mkdtemp(join(tmpdir(), "ta-lock-"));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

/** The newest generation file of DATA_DIR's lock (`pglite.lock/holder-<n>.json`). */
async function newestLockFile(dir: string): Promise<string> {
  const lockDir = join(dir, "pglite.lock");
  const numbers = (await readdir(lockDir)).map((n) => Number(/^holder-(\d+)\.json$/.exec(n)?.[1]));
  return join(lockDir, `holder-${Math.max(...numbers.filter(Number.isInteger))}.json`);
}

async function newestLock(dir: string): Promise<LockHolder> {
  return JSON.parse(await readFile(await newestLockFile(dir), "utf8")) as LockHolder;
}

/** kill -9: the lock stays behind, unreleased. */
async function crash(server: RunningServer): Promise<void> {
  server.process.kill("SIGKILL");
  if (server.process.exitCode === null && server.process.signalCode === null) {
    await new Promise((resolve) => server.process.once("exit", resolve));
  }
}

const anHourAgo = () => new Date(Date.now() - 3_600_000);

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

// Each test starts several real servers (a start rebuilds the bundle when a source changed).
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

    // Stopped cleanly: the lock is released, and the grant goes through and lasts.
    expect((await newestLock(dataDir)).released_at).toEqual(expect.any(String));
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
      await crash(restarted);
    }
    expect(await newestLock(dataDir)).toMatchObject({ pid: restarted.process.pid });
    expect((await newestLock(dataDir)).released_at).toBeUndefined();
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
  }, 180_000);

  it("restarts past a crash lock written under another host name (a recreated container)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ta-lock-host-"));
    try {
      const first = await startNodeServer({ DATA_DIR: dir });
      await crash(first);
      // What the recreated container finds, as versions before leases wrote it: one lock file
      // naming the dead container's host, never renewed. It used to block every start.
      await rm(join(dir, "pglite.lock"), { recursive: true });
      await writeFile(
        join(dir, "pglite.lock"),
        JSON.stringify({ pid: 1, host: "3f2a9c1d0b7e", command: "npm start", since: anHourAgo() }),
      );
      await utimes(join(dir, "pglite.lock"), anHourAgo(), anHourAgo());
      const second = await startNodeServer({ DATA_DIR: dir });
      expect(await newestLock(dir)).toMatchObject({ pid: second.process.pid });
      await crash(second);

      // The same with today's lock: the dead one's host name and pid namespace not this one's,
      // last renewed before the crash.
      const file = await newestLockFile(dir);
      const record = JSON.parse(await readFile(file, "utf8")) as LockHolder;
      await writeFile(
        file,
        JSON.stringify({
          ...record,
          host: "3f2a9c1d0b7e",
          pid_scope: "other-boot pid:[4026532001]",
        }),
      );
      await utimes(file, anHourAgo(), anHourAgo());
      const third = await startNodeServer({ DATA_DIR: dir });
      expect(await newestLock(dir)).toMatchObject({ pid: third.process.pid });
      expect(await third.stop()).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it("two first starts on one new DATA_DIR: one serves, the other stops with the in-use line", async () => {
    for (let round = 0; round < 2; round++) {
      const dir = join(await mkdtemp(join(tmpdir(), "ta-lock-twin-")), "data");
      try {
        const starts = await Promise.allSettled([
          startNodeServer({ DATA_DIR: dir }),
          startNodeServer({ DATA_DIR: dir }),
        ]);
        const served = starts.filter((s) => s.status === "fulfilled").map((s) => s.value);
        const failed = starts
          .filter((s) => s.status === "rejected")
          .map((s) => String((s.reason as Error).message));
        try {
          expect(served, failed.join("\n")).toHaveLength(1);
          expect(failed).toHaveLength(1);
          expect(failed[0]).toContain(`in use by process ${served[0]!.process.pid}`);
          expect(failed[0]).not.toMatch(/ENOTEMPTY|ENOENT|EEXIST/);
          const health = await fetch(`${served[0]!.url}/health`);
          expect(health.status).toBe(200);
        } finally {
          for (const server of served) expect(await server.stop()).toBe(0);
        }
        // Nothing half-made is left beside the data directory.
        expect((await readdir(join(dir, ".."))).sort()).toEqual(["data"]);
        expect((await readdir(dir)).filter((name) => name.includes(".copy-"))).toEqual([]);
      } finally {
        await rm(join(dir, ".."), { recursive: true, force: true });
      }
    }
  }, 180_000);
});
