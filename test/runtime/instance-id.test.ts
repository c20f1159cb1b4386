import type { ChildProcess } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config";
import { INSTANCE_ID_FILE, resolveInstanceId } from "../../src/runtime/node/instance-id";
import { startFakeOpenAi } from "../fakes/openai";
import { randomEmail } from "../support/client";
import { type RunningServer, runToExit, startNodeServer } from "../support/node-server";

/** Starts on a machine shared with other suites can be slow: a bound against a hang only. */
const READY_MS = 120_000;
const dirs: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), "ta-instance-id-"));
  dirs.push(dir);
  return dir;
};
const config = (env: Record<string, string>) => parseConfig({ PORT: "3100", ...env });

afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe("resolveInstanceId", () => {
  it("takes INSTANCE_ID as it is and writes nothing", async () => {
    const dir = await tempDir();
    const id = await resolveInstanceId(config({ INSTANCE_ID: "node-a-2", DATA_DIR: dir }));
    expect(id).toBe("node-a-2");
    expect(await readdir(dir)).toEqual([]);
  });

  it("creates <DATA_DIR>/instance-id once, owner-only, and reads it back on every start", async () => {
    const dir = join(await tempDir(), "data");
    const first = await resolveInstanceId(config({ DATA_DIR: dir }));
    const stored = (await readFile(join(dir, INSTANCE_ID_FILE), "utf8")).trim();
    expect(stored).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(first).toBe(stored);
    expect((await stat(join(dir, INSTANCE_ID_FILE))).mode & 0o777).toBe(0o600);
    expect(await resolveInstanceId(config({ DATA_DIR: dir, PORT: "3101" }))).toBe(first);
    // On PostgreSQL nothing locks the directory: two servers sharing it differ by their port.
    const shared = { DATA_DIR: dir, DATABASE_URL: "postgres://db.example/app" };
    expect(await resolveInstanceId(config(shared))).toBe(`${stored}:3100`);
    expect(await resolveInstanceId(config({ ...shared, PORT: "3101" }))).toBe(`${stored}:3101`);
    // No temporary file is left beside it.
    expect(await readdir(dir)).toEqual([INSTANCE_ID_FILE]);
  });

  it("gives processes starting at once on a new directory one id", async () => {
    const dir = await tempDir();
    const ids = await Promise.all(
      Array.from({ length: 12 }, () => resolveInstanceId(config({ DATA_DIR: dir }))),
    );
    expect(new Set(ids).size).toBe(1);
    expect(await readdir(dir)).toEqual([INSTANCE_ID_FILE]);
  });

  it("falls back to host and port when DATA_DIR cannot be written", async () => {
    const file = join(await tempDir(), "not-a-directory");
    await writeFile(file, "");
    const id = await resolveInstanceId(config({ DATA_DIR: join(file, "data") }));
    expect(id).toBe(`${hostname()}:3100`);
  });
});

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;
const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (!running(child)) return resolve();
    child.once("exit", () => resolve());
  });

describe("a server restarted on its DATA_DIR without INSTANCE_ID", () => {
  const servers: RunningServer[] = [];
  afterAll(async () => {
    for (const server of servers.filter((s) => running(s.process))) {
      server.process.kill("SIGKILL");
      await exited(server.process);
    }
  });

  it("recovers its own held charge at start, not after the sweep", async () => {
    const llm = await startFakeOpenAi("sk-instance-id");
    const env = {
      DATA_DIR: await tempDir(),
      SCHEDULER_ENABLED: "false",
      OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
    };
    const start = async () => {
      const server = await startNodeServer(env, READY_MS);
      servers.push(server);
      return server;
    };
    const api = async (server: RunningServer, path: string, token?: string, body?: unknown) => {
      const res = await fetch(`${server.url}${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: {
          "Content-Type": "application/json",
          ...(path === "/api/v1/ai/chat" ? { "Idempotency-Key": "k-instance-id" } : {}),
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    try {
      const setup = await start();
      const registered = await api(setup, "/api/v1/auth/register", undefined, {
        email: randomEmail(),
        password: "secret12",
      });
      expect(registered.status, setup.output()).toBe(201);
      const token: string = registered.body.access_token;
      const before = (await api(setup, "/api/v1/credits/balance", token)).body.balance;
      expect(await setup.stop()).toBe(0);
      const fixture = await runToExit(
        env,
        "test/support/crash-fixture.ts",
        [llm.url, llm.apiKey, "2"],
        90_000,
      );
      expect(fixture.code, fixture.output).toBe(0);

      // The model never answers; the process is killed with the charge held.
      const doomed = await start();
      llm.fail("hang");
      const sent = llm.requests.length;
      const chat = api(doomed, "/api/v1/ai/chat", token, { message: "FOB or CIF?" }).catch(
        () => null,
      );
      for (let i = 0; llm.requests.length === sent; i++) {
        if (i > 500) throw new Error(`the chat never reached the model\n${doomed.output()}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      expect((await api(doomed, "/api/v1/credits/balance", token)).body.balance).toBe(before - 2);
      doomed.process.kill("SIGKILL");
      await exited(doomed.process);
      await chat;

      // The id stored in DATA_DIR names the same instance: its hold is refunded before it
      // listens (the sweep would take a minute or more; the scheduler is off here anyway).
      const restarted = await start();
      expect((await api(restarted, "/api/v1/credits/balance", token)).body.balance).toBe(before);
      expect(await restarted.stop()).toBe(0);
    } finally {
      await llm.close();
    }
  }, 600_000);
});
