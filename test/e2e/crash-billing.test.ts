import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startFakeOpenAi } from "../fakes/openai";
import { randomEmail } from "../support/client";
import { type RunningServer, runToExit, startNodeServer } from "../support/node-server";

const dataDir = await mkdtemp(join(tmpdir(), "ta-crash-"));
const llm = await startFakeOpenAi("sk-crash-e2e");
const env = {
  DATA_DIR: dataDir,
  INSTANCE_ID: "crash-e2e-1",
  SCHEDULER_ENABLED: "false",
  // The fake LLM listens on loopback, which the outbound policy refuses unless listed.
  OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
};
/** Set by the fixture; not the default (1), so a drop by it is this charge and no other. */
const CHAT_COST = 3;
const KEY = "k-crash-1";
const question = { message: "Which incoterm suits a first order shipped by sea?" };

const servers: RunningServer[] = [];
const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;
const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (!running(child)) return resolve();
    child.once("exit", () => resolve());
  });

afterAll(async () => {
  // After a failure: whatever still runs is killed (a hanging chat would hold a SIGTERM 10 s).
  for (const server of servers.filter((s) => running(s.process))) {
    server.process.kill("SIGKILL");
    await exited(server.process);
  }
  await llm.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function start() {
  const server = await startNodeServer(env);
  servers.push(server);
  return server;
}

async function api(
  server: RunningServer,
  path: string,
  init: { token?: string; body?: unknown; key?: string } = {},
) {
  const res = await fetch(`${server.url}${path}`, {
    method: init.body === undefined ? "GET" : "POST",
    headers: {
      "Content-Type": "application/json",
      ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
      ...(init.key ? { "Idempotency-Key": init.key } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

const balanceOf = async (server: RunningServer, token: string) =>
  (await api(server, "/api/v1/credits/balance", { token })).body.balance as number;

const chatLedger = async (server: RunningServer, token: string) =>
  (await api(server, "/api/v1/credits/history?operation=chat", { token })).body.items as any[];

const chat = (server: RunningServer, token: string) =>
  api(server, "/api/v1/ai/chat", { token, body: question, key: KEY });

async function until(what: string, ok: () => boolean, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("a server killed between a chat's charge and its answer", () => {
  it("gives the credits back at restart and lets the same Idempotency-Key run once more", async () => {
    // First start migrates the new data directory; the account gets its registration credits.
    const setup = await start();
    const registered = await api(setup, "/api/v1/auth/register", {
      body: { email: randomEmail(), password: "secret12" },
    });
    expect(registered.status, setup.output()).toBe(201);
    const token: string = registered.body.access_token;
    const before = await balanceOf(setup, token);
    expect(before).toBeGreaterThanOrEqual(CHAT_COST);
    expect(await setup.stop()).toBe(0);

    // The fake LLM becomes the chat provider while no server holds the data directory.
    const fixture = await runToExit(env, "test/support/crash-fixture.ts", [
      llm.url,
      llm.apiKey,
      String(CHAT_COST),
    ]);
    expect(fixture.code, fixture.output).toBe(0);

    // The model never answers: the charge is held when the process dies.
    const doomed = await start();
    llm.fail("hang");
    const sent = llm.requests.length;
    const answered = chat(doomed, token).then(
      (res) => `answered ${res.status}`,
      () => "connection lost",
    );
    await until("the chat to reach the model", () => llm.requests.length > sent);
    expect(llm.requests.at(-1)!.messages.at(-1)!.content).toBe(question.message);
    expect(await balanceOf(doomed, token)).toBe(before - CHAT_COST);
    // The key is taken while the first request runs: a retry now is refused, not run twice.
    const meanwhile = await chat(doomed, token);
    expect(meanwhile.status, JSON.stringify(meanwhile.body)).toBe(409);
    doomed.process.kill("SIGKILL");
    await exited(doomed.process);
    expect(await answered).toBe("connection lost");
    expect(llm.requests.length).toBe(sent + 1);

    // Same INSTANCE_ID and DATA_DIR: the hold is refunded before the server listens.
    const restarted = await start();
    expect(await balanceOf(restarted, token), restarted.output()).toBe(before);
    const ledger = await chatLedger(restarted, token);
    expect(ledger).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: "consumption", operation: "chat", delta: -CHAT_COST }),
        expect.objectContaining({ kind: "refund", operation: "chat", delta: CHAT_COST }),
      ]),
    );
    expect(ledger.filter((row) => row.kind === "refund")).toHaveLength(1);

    // The client's retry with the same key runs (no 409) and is charged once.
    llm.fail(null);
    llm.reply(() => "CFR or FOB, depending on who books the vessel.");
    const retried = await chat(restarted, token);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
    expect(retried.body).toMatchObject({
      message: { role: "assistant", content: "CFR or FOB, depending on who books the vessel." },
      credits_charged: CHAT_COST,
      balance: before - CHAT_COST,
    });
    expect(llm.requests.length).toBe(sent + 2);
    expect(await balanceOf(restarted, token)).toBe(before - CHAT_COST);

    // Once answered, the key replays that answer: no model call, no charge.
    const replayed = await chat(restarted, token);
    expect(replayed.status).toBe(200);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(replayed.body).toEqual(retried.body);
    expect(llm.requests.length).toBe(sent + 2);
    expect(await balanceOf(restarted, token)).toBe(before - CHAT_COST);
    const finalLedger = await chatLedger(restarted, token);
    expect(finalLedger.map((row) => row.kind).sort()).toEqual([
      "consumption",
      "consumption",
      "refund",
    ]);
    expect(await restarted.stop()).toBe(0);
  }, 120_000);
});
