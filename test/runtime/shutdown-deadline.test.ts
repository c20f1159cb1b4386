import type { ChildProcess } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { type FakeOpenAi, startFakeOpenAi } from "../fakes/openai";
import { randomEmail } from "../support/client";
import { type RunningServer, runToExit, startNodeServer } from "../support/node-server";
import { serverStore } from "../support/server-store";

/**
 * A stop that reaches SHUTDOWN_TIMEOUT_MS (ADR 0116): a billed chat whose model never answers
 * is still running at the deadline. Its connection is cut, but the process hands its work back
 * before it exits 0: the hold is refunded with its ledger row and the key is free, so nothing is
 * left for the sweep or the next start, and the client's retry runs once.
 */

/** Starts on a machine shared with other suites can be slow: a bound against a hang only. */
const READY_MS = 120_000;
const CHAT_COST = 3;
const KEY = "k-deadline-1";

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;
const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (!running(child)) return resolve(child.exitCode);
    child.once("exit", (code) => resolve(code));
  });

async function api(server: RunningServer, path: string, token?: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      "Content-Type": "application/json",
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(path === "/api/v1/ai/chat" ? { "Idempotency-Key": KEY } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

function deadlineSuite(kind: "pglite" | "postgres") {
  let llm: FakeOpenAi | undefined;
  let cleanup: () => Promise<void> = async () => {};
  const servers: RunningServer[] = [];

  afterAll(async () => {
    for (const server of servers.filter((s) => running(s.process))) {
      server.process.kill("SIGKILL");
      await exitOf(server.process);
    }
    await llm?.close();
    await cleanup();
  });

  it(`hands a cut billed call back before it exits 0 (${kind})`, async () => {
    llm = await startFakeOpenAi("sk-deadline");
    const env: Record<string, string> = {
      INSTANCE_ID: `deadline-${kind}`,
      SCHEDULER_ENABLED: "false",
      OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
      SHUTDOWN_TIMEOUT_MS: "1500",
    };
    const store = await serverStore(kind, "deadline");
    Object.assign(env, store.env);
    cleanup = store.drop;
    const start = async () => {
      const server = await startNodeServer(env, READY_MS);
      servers.push(server);
      return server;
    };
    const setup = await start();
    const registered = await api(setup, "/api/v1/auth/register", undefined, {
      email: randomEmail(),
      password: "secret12",
    });
    expect(registered.status, setup.output()).toBe(201);
    const token: string = registered.body.access_token;
    const before = (await api(setup, "/api/v1/credits/balance", token)).body.balance as number;
    expect(await setup.stop()).toBe(0);
    const fixture = await runToExit(
      env,
      "test/support/crash-fixture.ts",
      [llm.url, llm.apiKey, String(CHAT_COST)],
      90_000,
    );
    expect(fixture.code, fixture.output).toBe(0);

    const server = await start();
    llm.fail("hang");
    const sent = llm.requests.length;
    const chat = api(server, "/api/v1/ai/chat", token, { message: "FOB or CIF?" }).then(
      (res) => `answered ${res.status}`,
      () => "cut",
    );
    for (let i = 0; llm.requests.length === sent; i++) {
      if (i > 1000) throw new Error(`the chat never reached the model\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect((await api(server, "/api/v1/credits/balance", token)).body.balance).toBe(
      before - CHAT_COST,
    );
    const exit = exitOf(server.process);
    server.process.kill("SIGTERM");
    expect(await exit, server.output()).toBe(0);
    expect(await chat).toBe("cut");
    expect(server.output()).toContain("shutdown deadline reached");

    // Settled by the stopping process itself, before any restart's recovery could.
    const probe = await runToExit(env, "test/support/shutdown-probe.ts", [], 90_000);
    expect(probe.code, probe.output).toBe(0);
    expect(JSON.parse(probe.output.trim().split("\n").at(-1)!)).toMatchObject({
      open_holds: 0,
      keys_in_flight: 0,
      wallets_off_ledger: 0,
      refunds: 1,
    });

    // The retry with the same key runs (no 409) and is charged once.
    const restarted = await start();
    expect((await api(restarted, "/api/v1/credits/balance", token)).body.balance).toBe(before);
    llm.fail(null);
    llm.reply(() => "FOB, if you book the vessel.");
    const retried = await api(restarted, "/api/v1/ai/chat", token, { message: "FOB or CIF?" });
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body.balance).toBe(before - CHAT_COST);
    const history = await api(restarted, "/api/v1/credits/history?operation=chat", token);
    expect((history.body.items as { kind: string }[]).map((row) => row.kind).sort()).toEqual([
      "consumption",
      "consumption",
      "refund",
    ]);
    expect(await restarted.stop()).toBe(0);
  }, 600_000);
}

describe("a stop past SHUTDOWN_TIMEOUT_MS", () => {
  describe("on the embedded database (PGlite)", () => deadlineSuite("pglite"));
  describe.skipIf(!process.env.DATABASE_URL)("on PostgreSQL", () => deadlineSuite("postgres"));
});
