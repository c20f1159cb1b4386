import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { request } from "node:http";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { withDatabase } from "../support/global-setup";
import { freePort } from "../support/node-server";

// WEB_CONCURRENCY through the real `npm start` entry (ADR 0117): workers on PostgreSQL, one
// process on the embedded database. Processes are counted from /proc, never from the answers.

const POSTGRES_URL = process.env.DATABASE_URL;
const START = "scripts/start.mjs";

interface Started {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

function start(env: Record<string, string>, port: number): Started {
  const child = spawn(process.execPath, [START], {
    env: {
      ...process.env,
      DATABASE_URL: "",
      REDIS_URL: "",
      INSTANCE_ID: "",
      LOG_LEVEL: "info",
      ...env,
      PORT: String(port),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { child, port, output: () => output, exited };
}

type LogLine = Record<string, unknown> & { msg: string };
const logLines = (output: string): LogLine[] =>
  output.split("\n").flatMap((line) => {
    try {
      const parsed = JSON.parse(line) as LogLine;
      return typeof parsed?.msg === "string" ? [parsed] : [];
    } catch {
      return [];
    }
  });

/** Waits (no deadline of its own: the test's timeout is the bound) until `found` sees the log. */
async function waitFor<T>(server: Started, found: (lines: LogLine[]) => T | undefined) {
  for (;;) {
    const value = found(logLines(server.output()));
    if (value !== undefined) return value;
    if (server.child.exitCode !== null) throw new Error(`server exited:\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The pids the primary logged as listening workers, by worker index (latest life each). */
const listeningWorkers = (lines: LogLine[]) =>
  new Map(
    lines
      .filter((l) => l.msg === "worker listening")
      .map((l) => [Number(l.worker), Number(l.pid)] as const),
  );

/** One variable of a process's environment as it started (/proc/<pid>/environ). */
const environOf = (pid: number, name: string) =>
  readFileSync(`/proc/${pid}/environ`, "utf8")
    .split("\0")
    .find((entry) => entry.startsWith(`${name}=`))
    ?.slice(name.length + 1);

const childrenOf = (pid: number): number[] =>
  readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch {
    return false;
  }
};

/** Socket inodes of established TCP connections whose local end is `port` (/proc/net/tcp). */
function establishedInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.trim().split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      const localPort = Number.parseInt(fields[1]?.split(":")[1] ?? "", 16);
      if (localPort === port && fields[3] === "01") inodes.add(fields[9]!);
    }
  }
  return inodes;
}

/** How many of those connections process `pid` holds open. */
function connectionsHeldBy(pid: number, inodes: Set<string>): number {
  let held = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match && inodes.has(match[1]!)) held++;
    } catch {
      // closed while we read
    }
  }
  return held;
}

/** One GET on a connection of its own, kept open afterwards (the caller ends it). */
function getOnOwnConnection(
  port: number,
  path: string,
): Promise<{ status: number; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let head = "";
    socket.on("error", reject);
    socket.on("data", (chunk) => {
      head += chunk.toString("latin1");
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head);
      if (status && head.includes("\r\n\r\n")) resolve({ status: Number(status[1]), socket });
    });
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`);
  });
}

/** A fresh connection per call (no agent), so the primary hands each to a worker in turn. */
function fetchStatus(port: number, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({ port, host: "127.0.0.1", path, headers, agent: false }, (res) => {
      let body = "";
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe.skipIf(!POSTGRES_URL)(
  "WEB_CONCURRENCY=2 on PostgreSQL (skipped without DATABASE_URL: the embedded database runs one process)",
  () => {
    const name = `ta_cluster_${process.pid}`;
    let dataDir: string;
    let server: Started;

    beforeAll(async () => {
      const admin = new pg.Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`create database ${name} template ${inject("postgresTemplate")}`);
      await admin.end();
      dataDir = await mkdtemp(join(tmpdir(), "cluster-"));
      // No secrets in the environment: worker 1 generates DATA_DIR/secrets.json on its first
      // start, and worker 2, started after it, must read the same ones (one session for both).
      server = start(
        {
          DATABASE_URL: withDatabase(POSTGRES_URL!, name),
          WEB_CONCURRENCY: "2",
          DATA_DIR: dataDir,
        },
        await freePort(),
      );
    });

    afterAll(async () => {
      if (server?.child.exitCode === null) server.child.kill("SIGKILL");
      const admin = new pg.Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it("runs two worker processes that both serve the port, restarts a killed one, and drains on SIGTERM", async () => {
      const primary = server.child.pid!;
      const workers = await waitFor(server, (lines) => {
        const found = listeningWorkers(lines);
        return found.size === 2 ? found : undefined;
      });
      const [first, second] = [workers.get(1)!, workers.get(2)!];
      expect(first).not.toBe(second);
      expect(childrenOf(primary)).toEqual(expect.arrayContaining([first, second]));
      // Worker k is instance `<base>-k` (the base stored under DATA_DIR); only worker 1 runs the
      // scheduled jobs.
      const base = `${readFileSync(join(dataDir, "instance-id"), "utf8").trim()}:${server.port}`;
      expect(environOf(first, "INSTANCE_ID")).toBe(`${base}-1`);
      expect(environOf(second, "INSTANCE_ID")).toBe(`${base}-2`);
      expect(environOf(second, "SCHEDULER_ENABLED")).toBe("false");
      expect(logLines(server.output()).filter((l) => l.msg === "scheduler started")).toHaveLength(
        1,
      );

      // Eight connections held open: the primary hands them out in turn, so each worker holds some.
      const held = await Promise.all(
        Array.from({ length: 8 }, () => getOnOwnConnection(server.port, "/health")),
      );
      try {
        expect(held.map((h) => h.status)).toEqual(Array(8).fill(200));
        const inodes = establishedInodes(server.port);
        expect(connectionsHeldBy(first, inodes)).toBeGreaterThan(0);
        expect(connectionsHeldBy(second, inodes)).toBeGreaterThan(0);
      } finally {
        for (const { socket } of held) socket.destroy();
      }

      // A session made on one worker is good on the other: the same secrets and database.
      const registered = await new Promise<string>((resolve, reject) => {
        const req = request(
          {
            port: server.port,
            host: "127.0.0.1",
            path: "/api/v1/auth/register",
            method: "POST",
            headers: { "content-type": "application/json" },
            agent: false,
          },
          (res) => {
            let body = "";
            res.on("data", (chunk) => (body += chunk));
            res.on("end", () =>
              res.statusCode === 201
                ? resolve((JSON.parse(body) as { access_token: string }).access_token)
                : reject(new Error(`register: ${res.statusCode} ${body}`)),
            );
          },
        );
        req.end(
          JSON.stringify({
            email: "cluster@example.com",
            password: "cluster-password-1234",
            name: "Cluster",
          }),
        );
      });
      const auth = { authorization: `Bearer ${registered}` };
      const me = [];
      for (let i = 0; i < 6; i++) me.push(await fetchStatus(server.port, "/api/v1/auth/me", auth));
      expect(me.map((r) => r.status)).toEqual(Array(6).fill(200));

      // kill -9 worker 2: the port keeps answering while it is down, and it comes back.
      process.kill(second, "SIGKILL");
      await waitFor(server, (lines) =>
        lines.some((l) => l.msg === "worker died; restarting" && l.worker === 2) ? true : undefined,
      );
      const whileDown = [];
      for (let i = 0; i < 4; i++)
        whileDown.push((await fetchStatus(server.port, "/health")).status);
      expect(whileDown).toEqual([200, 200, 200, 200]);
      const restarted = await waitFor(server, (lines) => {
        const pid = listeningWorkers(lines).get(2);
        return pid !== undefined && pid !== second ? pid : undefined;
      });
      expect(isRunning(second)).toBe(false);
      // The same instance as before, so it recovers what its previous life left.
      expect(environOf(restarted, "INSTANCE_ID")).toBe(`${base}-2`);
      expect(childrenOf(primary)).toEqual(expect.arrayContaining([first, restarted]));
      expect((await fetchStatus(server.port, "/api/v1/auth/me", auth)).status).toBe(200);

      // SIGTERM to the primary: every worker drains, the primary exits 0, nothing is left.
      server.child.kill("SIGTERM");
      expect(await server.exited).toBe(0);
      expect([first, restarted].filter(isRunning)).toEqual([]);
      const stopped = logLines(server.output()).filter((l) => l.msg === "shutting down");
      expect(stopped.map((l) => l.signal)).toEqual(["SIGTERM", "SIGTERM"]);
    }, 240_000);
  },
);

describe("WEB_CONCURRENCY=2 on the embedded database", () => {
  let dataDir: string;
  let server: Started | undefined;

  afterAll(async () => {
    if (server?.child.exitCode === null) server.child.kill("SIGKILL");
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("runs one process and says why", async () => {
    dataDir = await mkdtemp(join(tmpdir(), "cluster-pglite-"));
    server = start({ WEB_CONCURRENCY: "2", DATA_DIR: dataDir }, await freePort());
    const running = server;
    await waitFor(running, (lines) =>
      lines.some((l) => l.msg === "listening") ? true : undefined,
    );
    const lines = logLines(running.output());
    expect(lines.find((l) => l.msg === "running one process")).toMatchObject({
      web_concurrency: 2,
      refused: expect.stringContaining("embedded database"),
    });
    expect(lines.some((l) => l.msg === "starting workers")).toBe(false);
    // The process `npm start` ran is the server itself: no other node process serves the port.
    const nodeChildren = childrenOf(running.child.pid!).filter((pid) =>
      readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(START),
    );
    expect(nodeChildren).toEqual([]);
    expect((await fetchStatus(running.port, "/health")).status).toBe(200);
    running.child.kill("SIGTERM");
    expect(await running.exited).toBe(0);
  }, 120_000);
});
