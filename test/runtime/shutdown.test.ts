import type { ChildProcess } from "node:child_process";
import { Agent, request } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { type FakeOpenAi, startFakeOpenAi } from "../fakes/openai";
import { randomEmail } from "../support/client";
import { type RunningServer, runToExit, startNodeServer } from "../support/node-server";
import { serverStore } from "../support/server-store";

/**
 * SIGTERM under keep-alive load (issue #25, ADR 0116): clients on keep-alive agents read /me
 * and the customer list and translate (a billed call to a fake provider that takes a while, so
 * charges are in flight) when the server is told to stop. Every request that was sent gets an
 * answer (a refused connection after the listener closed is no drop: it was never sent, and a
 * load balancer retries it elsewhere), the process exits 0, and what it leaves in the database
 * is settled: no hold open, no key in flight, every wallet equal to its ledger, and each user
 * charged exactly for the translations that were answered.
 */

/** Starts on a machine shared with other suites can be slow: a bound against a hang only. */
const READY_MS = 120_000;
const USERS = 6;
const COST = 1;
/** Translations a user sends at most: fewer than the credits a sign-up gets. */
const MAX_KEYS = 20;

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;
const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (!running(child)) return resolve(child.exitCode);
    child.once("exit", (code) => resolve(code));
  });

interface User {
  token: string;
  ip: string;
  balance: number;
  agent: Agent;
}

type Outcome =
  | { status: number; connection: string | undefined; body: any }
  | { error: string; refused: boolean };

/** One request on `agent` (keep-alive); an error says whether the connection was refused. */
function send(
  url: string,
  path: string,
  init: { agent?: Agent; token?: string; ip: string; body?: unknown; key?: string },
): Promise<Outcome> {
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  return new Promise((resolve) => {
    const req = request(
      `${url}${path}`,
      {
        method: body === undefined ? "GET" : "POST",
        agent: init.agent,
        headers: {
          "Content-Type": "application/json",
          "X-Forwarded-For": init.ip,
          ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
          ...(init.key ? { "Idempotency-Key": init.key } : {}),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            connection: res.headers.connection,
            body: text ? JSON.parse(text) : null,
          }),
        );
        res.on("error", (error) => resolve({ error: String(error), refused: false }));
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) =>
      resolve({ error: `${error.code}: ${error.message}`, refused: error.code === "ECONNREFUSED" }),
    );
    req.end(body);
  });
}

async function ok(server: RunningServer, path: string, init: Parameters<typeof send>[2]) {
  const outcome = await send(server.url, path, init);
  if ("error" in outcome || outcome.status >= 300) {
    throw new Error(`${path}: ${JSON.stringify(outcome)}\n${server.output()}`);
  }
  return outcome.body;
}

async function registerUsers(server: RunningServer): Promise<User[]> {
  const users: User[] = [];
  for (let i = 0; i < USERS; i++) {
    const ip = `198.51.100.${i + 1}`;
    const registered = await ok(server, "/api/v1/auth/register", {
      ip,
      body: { email: randomEmail(), password: "secret12" },
    });
    const user = { token: registered.access_token as string, ip, balance: 0, agent: new Agent() };
    user.balance = (await ok(server, "/api/v1/credits/balance", user)).balance;
    expect(user.balance).toBeGreaterThanOrEqual(MAX_KEYS * COST);
    users.push(user);
  }
  return users;
}

/** What the load saw: answers (and how many said `Connection: close`), drops, billed keys. */
interface Load {
  answered: number;
  closing: number;
  drops: string[];
  /** Per user: the keys whose translation was answered 200 (charged). */
  charged: number[];
}

/**
 * Three loops per user on one keep-alive agent (GET /me, GET the customer list, POST a
 * translation with a fresh key), each until the server refuses its connection. Resolves
 * `warm` once every loop has had two answers, so the signal finds them all mid-stream.
 */
function driveLoad(server: RunningServer, users: User[]) {
  const load: Load = { answered: 0, closing: 0, drops: [], charged: users.map(() => 0) };
  let warming = users.length * 3;
  let markWarm: () => void = () => {};
  const warm = new Promise<void>((resolve) => {
    markWarm = resolve;
  });
  const loop = async (index: number, next: (n: number) => Parameters<typeof send>) => {
    for (let n = 0; ; n++) {
      const args = next(n);
      if (!args[1]) break;
      const outcome = await send(...args);
      if ("error" in outcome) {
        if (!outcome.refused) load.drops.push(`${args[1]}: ${outcome.error}`);
        break;
      }
      load.answered++;
      if (outcome.connection === "close") load.closing++;
      if (args[1] === "/api/v1/translate" && outcome.status === 200) load.charged[index]!++;
      if (n === 1 && --warming === 0) markWarm();
    }
  };
  const loops = users.flatMap((user, index) => {
    const as = { agent: user.agent, token: user.token, ip: user.ip };
    return [
      loop(index, () => [server.url, "/api/v1/auth/me", as]),
      loop(index, () => [server.url, "/api/v1/customers?size=20", as]),
      loop(index, (n) => [
        server.url,
        n < MAX_KEYS ? "/api/v1/translate" : "",
        {
          ...as,
          key: `shutdown-${index}-${n}`,
          body: {
            text: `Quote ${n}: 500 pieces FOB Ningbo.`,
            source_lang: "en",
            target_lang: "zh",
          },
        },
      ]),
    ];
  });
  return { load, warm, done: Promise.all(loops) };
}

function shutdownSuite(kind: "pglite" | "postgres") {
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

  it(`answers every request sent, settles every charge and exits 0 (${kind})`, async () => {
    llm = await startFakeOpenAi("sk-shutdown");
    const env: Record<string, string> = {
      INSTANCE_ID: `shutdown-${kind}`,
      SCHEDULER_ENABLED: "false",
      OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
      TRUST_PROXY: "1",
    };
    const store = await serverStore(kind, "shutdown");
    Object.assign(env, store.env);
    cleanup = store.drop;
    const start = async () => {
      const server = await startNodeServer(env, READY_MS);
      servers.push(server);
      return server;
    };
    let server = await start();
    const users = await registerUsers(server);
    expect(await server.stop()).toBe(0);
    const fixture = await runToExit(
      env,
      "test/support/crash-fixture.ts",
      [llm.url, llm.apiKey, String(COST), "translate"],
      90_000,
    );
    expect(fixture.code, fixture.output).toBe(0);
    // Answers take a while, so translations (and their holds) are in flight at the signal.
    llm.latency(() => 100 + Math.floor(Math.random() * 200));
    llm.reply((messages) => `译文：${messages.at(-1)?.content.slice(0, 30) ?? ""}`);

    server = await start();
    for (const user of users) user.agent = new Agent({ keepAlive: true, maxSockets: 3 });
    const { load, warm, done } = driveLoad(server, users);
    await warm;
    const answeredBefore = load.answered;
    const exit = exitOf(server.process);
    server.process.kill("SIGTERM");
    await done;
    for (const user of users) user.agent.destroy();

    expect(await exit, server.output()).toBe(0);
    expect(load.drops, server.output()).toEqual([]);
    // Requests in flight at the signal were answered, and told to close their connection.
    expect(load.answered).toBeGreaterThan(answeredBefore);
    expect(load.closing).toBeGreaterThan(0);

    // Before any restart (whose recovery would settle it): nothing left for someone else.
    const probe = await runToExit(env, "test/support/shutdown-probe.ts", [], 90_000);
    expect(probe.code, probe.output).toBe(0);
    expect(JSON.parse(probe.output.trim().split("\n").at(-1)!)).toMatchObject({
      open_holds: 0,
      keys_in_flight: 0,
      runs_still_leased: 0,
      wallets_off_ledger: 0,
    });

    // Each user paid for exactly the translations that were answered, no more, no less.
    server = await start();
    for (const [index, user] of users.entries()) {
      const history = await ok(
        server,
        "/api/v1/credits/history?operation=translate&size=100",
        user,
      );
      const net = -(history.items as { delta: number }[]).reduce((sum, row) => sum + row.delta, 0);
      const balance = (await ok(server, "/api/v1/credits/balance", user)).balance;
      expect({ net, balance }).toEqual({
        net: load.charged[index]! * COST,
        balance: user.balance - load.charged[index]! * COST,
      });
    }
    expect(await server.stop()).toBe(0);
  }, 600_000);
}

/** What a client read from an event stream, and how the stream and its connection ended. */
interface StreamRead {
  /** Each event's `event`, `retry` and `id` fields, in order (comment lines skipped). */
  events: { event: string; retry?: string; id?: string }[];
  /** The response ended cleanly (the last chunk arrived), not cut. */
  ended: boolean;
  error?: string;
}

/**
 * Opens GET `path` as an event stream on a kept-alive connection of its own; `opened` resolves
 * once the first event arrived, `done` once the connection has closed.
 */
function followStream(url: string, path: string, token: string) {
  const read: StreamRead = { events: [], ended: false };
  let markOpen: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    markOpen = resolve;
  });
  const done = new Promise<StreamRead>((resolve) => {
    const req = request(
      `${url}${path}`,
      {
        // Kept alive, as a browser's EventSource connection is: the client does not close it
        // when the stream ends, so `read` resolves once the server has closed it.
        agent: new Agent({ keepAlive: true }),
        headers: { Authorization: `Bearer ${token}`, Accept: "text/event-stream" },
      },
      (res) => {
        let buffered = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          buffered += chunk;
          const blocks = buffered.split("\n\n");
          buffered = blocks.pop() ?? "";
          for (const block of blocks) {
            const lines = block.split("\n").filter((line) => line && !line.startsWith(":"));
            if (lines.length === 0) continue;
            const field = (name: string) =>
              lines
                .find((line) => line.startsWith(`${name}:`))
                ?.slice(name.length + 1)
                .trim();
            const event = { event: field("event") ?? "message" } as StreamRead["events"][number];
            if (field("retry") !== undefined) event.retry = field("retry");
            if (field("id") !== undefined) event.id = field("id");
            read.events.push(event);
            markOpen();
          }
        });
        res.on("end", () => (read.ended = true));
        res.on("error", (error) => (read.error = String(error)));
        res.socket.once("close", () => resolve(read));
      },
    );
    req.on("error", (error) => {
      read.error = String(error);
      markOpen();
      resolve(read);
    });
    req.end();
  });
  return { opened, done };
}

/**
 * An agent run's event stream open at SIGTERM (ADR 0116): it gets a last `reconnect` event with
 * `retry:` (its EventSource comes back elsewhere, and begins with the run's state again) and
 * ends cleanly, so the drain does not wait for it: no deadline is reached, nothing is cut, the
 * process exits 0. Before, the stream held the drain to SHUTDOWN_TIMEOUT_MS and was cut there.
 */
function streamSuite(kind: "pglite" | "postgres") {
  let cleanup: () => Promise<void> = async () => {};
  const servers: RunningServer[] = [];

  afterAll(async () => {
    for (const server of servers.filter((s) => running(s.process))) {
      server.process.kill("SIGKILL");
      await exitOf(server.process);
    }
    await cleanup();
  });

  it(`ends an open agent event stream with a reconnect event and exits 0 (${kind})`, async () => {
    const env: Record<string, string> = {
      INSTANCE_ID: `shutdown-stream-${kind}`,
      SCHEDULER_ENABLED: "false",
      // Longer than the keep-alive timeout (5 s) an idle connection is given: only a stream
      // that outlives the drain reaches it.
      SHUTDOWN_TIMEOUT_MS: "10000",
    };
    const store = await serverStore(kind, "shutdown_stream");
    Object.assign(env, store.env);
    cleanup = store.drop;
    const start = async () => {
      const server = await startNodeServer(env, READY_MS);
      servers.push(server);
      return server;
    };
    let server = await start();
    const registered = await ok(server, "/api/v1/auth/register", {
      ip: "198.51.100.99",
      body: { email: randomEmail(), password: "secret12" },
    });
    expect(await server.stop()).toBe(0);
    // A run another instance is running: the stream stays open, this server never touches it.
    const fixture = await runToExit(
      env,
      "test/support/agent-stream-fixture.ts",
      [registered.user.id],
      90_000,
    );
    expect(fixture.code, fixture.output).toBe(0);
    const runId = fixture.output.trim().split("\n").at(-1)!;

    server = await start();
    const stream = followStream(
      server.url,
      `/api/v1/agent/${runId}/events`,
      registered.access_token,
    );
    await stream.opened;
    const exit = exitOf(server.process);
    server.process.kill("SIGTERM");
    const read = await stream.done;

    expect(await exit, server.output()).toBe(0);
    expect(read.error, server.output()).toBeUndefined();
    expect(read.ended).toBe(true);
    expect(read.events.map((event) => event.event)).toEqual(["state", "reconnect"]);
    expect(read.events.at(-1)!.retry).toBe("1000");
    // Nothing was held to the deadline, nothing cut.
    expect(server.output()).not.toContain("shutdown deadline reached");
  }, 600_000);
}

describe("SIGTERM under keep-alive load", () => {
  describe("on the embedded database (PGlite)", () => shutdownSuite("pglite"));
  describe.skipIf(!process.env.DATABASE_URL)("on PostgreSQL", () => shutdownSuite("postgres"));
});

describe("SIGTERM with an agent event stream open", () => {
  describe("on the embedded database (PGlite)", () => streamSuite("pglite"));
  describe.skipIf(!process.env.DATABASE_URL)("on PostgreSQL", () => streamSuite("postgres"));
});
