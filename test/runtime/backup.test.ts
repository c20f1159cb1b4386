import type { ChildProcess } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { Agent, fetch } from "undici";
import { afterAll, describe, expect, it } from "vitest";
import { openPgliteDatabase } from "../../src/runtime/node/pglite";
import { startFakeOpenAi } from "../fakes/openai";
import { randomEmail } from "../support/client";
import { type RunningServer, runToExit, startNodeServer } from "../support/node-server";

/**
 * `npm run db:backup` / `db:restore` (ADR 0118) through the real processes: a server taking
 * writes (customers created, chats billed against a fake model) is backed up while it writes,
 * the backup is restored into a new directory or database, and a server started on it must
 * have every write acknowledged before the backup began, a balance equal to its ledger for
 * every wallet, and nothing held over from the old process.
 */

const CLI = "src/runtime/backup-cli.ts";
/** Bounds against a hang for the CLI and the servers on a busy machine; nothing asserts on time. */
const PROCESS_LIMIT_MS = 180_000;
const WRITERS = 3;

const scratch = await mkdtemp(join(tmpdir(), "ta-backup-"));
const llm = await startFakeOpenAi("sk-backup-test");
llm.reply(() => "FOB suits a first sea shipment.");
const servers: RunningServer[] = [];
const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

afterAll(async () => {
  for (const server of servers.filter((s) => running(s.process))) {
    server.process.kill("SIGKILL");
    await new Promise((resolve) => server.process.once("exit", resolve));
  }
  await llm.close();
  await rm(scratch, { recursive: true, force: true });
});

const cli = (env: Record<string, string>, ...args: string[]) =>
  runToExit(env, CLI, args, PROCESS_LIMIT_MS);

async function start(env: Record<string, string>) {
  const server = await startNodeServer(env, PROCESS_LIMIT_MS);
  servers.push(server);
  return server;
}

/**
 * A connection per request: a keep-alive connection the server times out while a client on this
 * overloaded machine reuses it is reset, which says nothing about backups (the drain's own
 * tests cover keep-alive).
 */
const oneRequestPerConnection = new Agent({ pipelining: 0 });

async function api(
  server: RunningServer,
  path: string,
  init: { token?: string; body?: unknown; key?: string } = {},
) {
  const res = await fetch(`${server.url}${path}`, {
    dispatcher: oneRequestPerConnection,
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

async function until(what: string, ok: () => boolean) {
  // A bound against a hang, not a timing assertion: the writers ack in milliseconds.
  const deadline = Date.now() + 60_000;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`never reached: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface Ack {
  kind: "customer" | "chat";
  token: string;
  /** The customer's id, or the chat's Idempotency-Key. */
  ref: string;
  /** The chat's request (a replay must send the same), and the answer. */
  request?: unknown;
  body: unknown;
  beforeBackup: boolean;
}

/** Writers that run until stopped; every acknowledged write is recorded with its phase. */
function startWriters(server: RunningServer, tokens: string[]) {
  const acks: Ack[] = [];
  const failures: string[] = [];
  const phase = { backupStarted: false, stop: false };
  const writer = async (token: string, w: number) => {
    for (let n = 0; !phase.stop; n++) {
      if (n % 2 === 0) {
        const res = await api(server, "/api/v1/customers", {
          token,
          body: { company: `Backup Co ${w}-${n}` },
        });
        const beforeBackup = !phase.backupStarted;
        if (res.status === 201) {
          acks.push({ kind: "customer", token, ref: res.body.id, body: res.body, beforeBackup });
        } else failures.push(`customer ${res.status} ${JSON.stringify(res.body)}`);
      } else {
        const key = `backup-${w}-${n}`;
        const request = { message: `Which incoterm for order ${w}-${n}?` };
        const res = await api(server, "/api/v1/ai/chat", { token, key, body: request });
        const beforeBackup = !phase.backupStarted;
        if (res.status === 200) {
          acks.push({ kind: "chat", token, ref: key, request, body: res.body, beforeBackup });
        } else if (res.status !== 402) {
          // Out of credits (402) is an answer; anything else is the backup disturbing service.
          failures.push(`chat ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
    }
  };
  // A writer that throws (a reset connection) is a failure to report, not a stray rejection.
  const done = Promise.all(
    tokens.map((token, w) =>
      writer(token, w).catch((error) =>
        failures.push(`${phase.backupStarted ? "after" : "before"} the backup began: ${error}`),
      ),
    ),
  );
  return { acks, failures, phase, done };
}

interface Target {
  /** Settings of the server whose database is backed up, and of the one restored into. */
  source: Record<string, string>;
  restored: Record<string, string>;
  file: string;
  /** Every wallet whose balance is not the sum of its ledger, the wallets, and the open holds. */
  audit(): Promise<{ mismatched: unknown[]; wallets: number; holds: unknown[] }>;
}

async function backUpWhileWriting(target: Target) {
  // The fake model becomes the chat provider (1 credit a chat) before the server starts; the
  // fixture's first open migrates the new database.
  const fixture = await runToExit(
    target.source,
    "test/support/crash-fixture.ts",
    [llm.url, llm.apiKey, "1"],
    PROCESS_LIMIT_MS,
  );
  expect(fixture.code, fixture.output).toBe(0);

  const source = await start(target.source);
  const tokens: string[] = [];
  for (let i = 0; i < WRITERS; i++) {
    const registered = await api(source, "/api/v1/auth/register", {
      body: { email: randomEmail(), password: "backup-secret-12" },
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    tokens.push(registered.body.access_token);
  }
  const writers = startWriters(source, tokens);
  await until(
    "two customers and two chats acknowledged",
    () =>
      writers.acks.filter((a) => a.kind === "customer").length >= 2 &&
      writers.acks.filter((a) => a.kind === "chat").length >= 2,
  );

  writers.phase.backupStarted = true;
  const ackedBefore = writers.acks.length;
  const backup = await cli(target.source, "backup", target.file);
  const ackedDuring = writers.acks.length - ackedBefore;
  writers.phase.stop = true;
  await writers.done;
  expect(backup.code, backup.output).toBe(0);
  // The backup ran beside the writers, and disturbed none of them.
  expect(ackedDuring).toBeGreaterThan(0);
  expect(writers.failures).toEqual([]);
  expect(await source.stop()).toBe(0);

  const restore = await cli(target.restored, "restore", target.file);
  expect(restore.code, restore.output).toBe(0);
  // The secrets are kept apart from the database's backup (docs/backup.md): the tokens and the
  // sealed provider keys of the backed-up service hold on the restored one with them.
  await mkdir(target.restored.DATA_DIR!, { recursive: true });
  await copyFile(
    join(target.source.DATA_DIR!, "secrets.json"),
    join(target.restored.DATA_DIR!, "secrets.json"),
  );

  // Same INSTANCE_ID: anything the old process held is this instance's to settle at start.
  const restored = await start(target.restored);
  try {
    await checkRestored(restored, writers.acks);
  } finally {
    expect(await restored.stop()).toBe(0);
  }

  const audit = await target.audit();
  expect(audit.wallets).toBeGreaterThanOrEqual(WRITERS);
  expect(audit.mismatched).toEqual([]);
  expect(audit.holds).toEqual([]);
}

/** Every write acknowledged before the backup began is on the restored server. */
async function checkRestored(restored: RunningServer, acks: Ack[]) {
  const must = acks.filter((a) => a.beforeBackup);
  expect(must.length).toBeGreaterThanOrEqual(4);
  const modelCalls = llm.requests.length;
  for (const ack of must) {
    if (ack.kind === "customer") {
      const found = await api(restored, `/api/v1/customers/${ack.ref}`, { token: ack.token });
      expect(found.status, `customer ${ack.ref}`).toBe(200);
      expect(found.body.company).toBe((ack.body as { company: string }).company);
    } else {
      // The answer and its charge are there: the same key replays it without a model call.
      const replayed = await api(restored, "/api/v1/ai/chat", {
        token: ack.token,
        key: ack.ref,
        body: ack.request,
      });
      expect(replayed.status, `chat ${ack.ref}`).toBe(200);
      expect(replayed.headers.get("idempotent-replayed")).toBe("true");
      expect(replayed.body).toEqual(ack.body);
    }
  }
  expect(llm.requests.length).toBe(modelCalls);
}

const AUDIT_SQL = {
  mismatched: `select w.org_id, w.balance, coalesce(sum(l.delta), 0)::int as ledger
                 from org_credits w left join credit_ledger l on l.org_id = w.org_id
                group by w.org_id, w.balance
               having w.balance <> coalesce(sum(l.delta), 0)`,
  wallets: "select count(*)::int as n from org_credits",
  holds: "select instance_id, idempotency_key, heartbeat_at::text from credit_holds",
};

describe("embedded database backups", () => {
  const dataDir = join(scratch, "source");
  const restoredDir = join(scratch, "restored");
  const file = join(scratch, "embedded.tar.gz");
  const base = { SCHEDULER_ENABLED: "false", OUTBOUND_ALLOW_HOSTS: "127.0.0.1" };
  const source = { ...base, DATA_DIR: dataDir, INSTANCE_ID: "backup-embedded" };
  const restored = { ...base, DATA_DIR: restoredDir, INSTANCE_ID: "backup-embedded" };

  it("backs up a running server while it writes, and restores every acknowledged write", async () => {
    await backUpWhileWriting({
      source,
      restored,
      file,
      async audit() {
        const database = await openPgliteDatabase(join(restoredDir, "pglite"));
        try {
          const client = (
            database.db as unknown as { $client: import("@electric-sql/pglite").PGlite }
          ).$client;
          const count = async (query: string) =>
            (await client.query<{ n: number }>(query)).rows[0]!.n;
          return {
            mismatched: (await client.query(AUDIT_SQL.mismatched)).rows,
            wallets: await count(AUDIT_SQL.wallets),
            holds: (await client.query(AUDIT_SQL.holds)).rows,
          };
        } finally {
          await database.close();
        }
      },
    });
  }, 900_000);

  it("refuses a restore into a running server's directory, a non-empty one without --force, and a file that is not a backup", async () => {
    const server = await start(restored);
    const busy = await cli(restored, "restore", file, "--force");
    expect(busy.code).toBe(1);
    expect(busy.output).toContain("is in use by process");
    expect(await server.stop()).toBe(0);

    const notEmpty = await cli(restored, "restore", file);
    expect(notEmpty.code).toBe(1);
    expect(notEmpty.output).toContain("is not empty");

    const junk = join(scratch, "junk.tar.gz");
    await writeFile(junk, "not a backup\n");
    const wrong = await cli(restored, "restore", junk, "--force");
    expect(wrong.code).toBe(1);
    expect(wrong.output).toContain("is not a backup of the embedded database");
    // Nothing moved aside by the refusals.
    expect((await readdir(restoredDir)).filter((name) => name.includes("before-restore"))).toEqual(
      [],
    );

    const forced = await cli(restored, "restore", file, "--force");
    expect(forced.code, forced.output).toBe(0);
    expect(forced.output).toContain("the previous database was moved to");
    expect(
      (await readdir(restoredDir)).filter((name) => name.startsWith("pglite.before-restore-")),
    ).toHaveLength(1);
    // The restored directory starts.
    const again = await start(restored);
    expect((await fetch(`${again.url}/health`)).status).toBe(200);
    expect(await again.stop()).toBe(0);
  }, 600_000);
});

const postgresUrl = process.env.DATABASE_URL;

describe.runIf(postgresUrl)("PostgreSQL backups (pg_dump / pg_restore)", () => {
  const names = [`backup_src_${process.pid}`, `backup_dst_${process.pid}`];
  const urlOf = (name: string) => {
    // Built even when the suite is skipped (no DATABASE_URL): then never used.
    const url = new URL(postgresUrl ?? "postgres://127.0.0.1/unused");
    url.pathname = `/${name}`;
    return url.href;
  };
  const admin = async <T>(work: (client: pg.Client) => Promise<T>) => {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  const dropAll = () =>
    admin(async (client) => {
      for (const name of names) await client.query(`drop database if exists ${name} with (force)`);
    });
  afterAll(dropAll);

  const base = { SCHEDULER_ENABLED: "false", OUTBOUND_ALLOW_HOSTS: "127.0.0.1" };
  // DATA_DIR holds only the secrets here (the source's, copied to the restored one). One
  // worker: with several, the one answering /health may be checked and stopped before a slower
  // sibling has started and settled its own holds (the drain's and the cluster's tests cover
  // that); here each instance's recovery has run before its first answer.
  const source = {
    ...base,
    WEB_CONCURRENCY: "1",
    DATABASE_URL: urlOf(names[0]!),
    DATA_DIR: join(scratch, "pg-source"),
    INSTANCE_ID: "backup-postgres",
  };
  const restored = {
    ...base,
    WEB_CONCURRENCY: "1",
    DATABASE_URL: urlOf(names[1]!),
    DATA_DIR: join(scratch, "pg-restored"),
    INSTANCE_ID: "backup-postgres",
  };
  const file = join(scratch, "postgres.dump");

  it("backs up a running server while it writes, and restores every acknowledged write into a new database", async () => {
    await dropAll();
    await admin(async (client) => {
      for (const name of names) await client.query(`create database ${name}`);
    });
    await backUpWhileWriting({
      source,
      restored,
      file,
      async audit() {
        const client = new pg.Client({ connectionString: restored.DATABASE_URL });
        await client.connect();
        try {
          const count = async (query: string) => (await client.query(query)).rows[0].n as number;
          return {
            mismatched: (await client.query(AUDIT_SQL.mismatched)).rows,
            wallets: await count(AUDIT_SQL.wallets),
            holds: (await client.query(AUDIT_SQL.holds)).rows,
          };
        } finally {
          await client.end();
        }
      },
    });
  }, 900_000);

  it("refuses a file that is not a pg_dump archive, leaving the database as it was", async () => {
    const junk = join(scratch, "embedded-not-pg.tar.gz");
    await writeFile(junk, "not a dump\n");
    const wrong = await cli(restored, "restore", junk);
    expect(wrong.code).toBe(1);
    expect(wrong.output).toContain("is not a pg_dump archive");
    const client = new pg.Client({ connectionString: restored.DATABASE_URL });
    await client.connect();
    const wallets = (await client.query(AUDIT_SQL.wallets)).rows[0].n as number;
    await client.end();
    expect(wallets).toBeGreaterThanOrEqual(WRITERS);
  }, 300_000);
});
