// Issue #25 item 3: /me and the customer list at 1 and 2 server processes: the app (WEB_CONCURRENCY),
// the bare node:http ceilings (the same statements, node:cluster over one port) and a Fastify 5 +
// pg + jose server running the app's exact statements (bench/fastify-server.ts).
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { connect } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { LIST_PATH } from "../customers";
import { type LoadSummary, type LoadTarget, measureInterleaved } from "../load";
import { type Child, freePort, startNode, waitReady } from "../proc";
import { makeTempDir } from "../resources";
import type { BenchContext } from "../setup";

const SCALING_PROCESSES = [1, 2] as const;

export interface ScalingRow {
  route: "/me" | "list";
  processes: number;
  app: LoadSummary;
  ceiling: LoadSummary;
  fastify: LoadSummary;
}

export interface ScalingResult {
  rows: ScalingRow[];
  /** Whether Fastify's answers are the app's (the list: byte for byte; /me: the same keys). */
  fastifySameMe: boolean;
  fastifySameList: boolean;
}

const ME_PATH = "/api/v1/auth/me";
/** Runs a ceiling or the Fastify server as N processes on one port (node:cluster). */
const CLUSTER_SCRIPT = "bench/ceilings/cluster.ts";

/** Established TCP connections whose local end is `port`, by socket inode (/proc/net/tcp). */
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

function holdsOneOf(pid: number, inodes: Set<string>): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        return match !== null && inodes.has(match[1]!);
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/** The node children of `pid` that run `script` (node:cluster forks run the primary's script). */
function workerPids(pid: number, script: string): number[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);
  return children.filter((child) => {
    try {
      return readFileSync(`/proc/${child}/cmdline`, "utf8").includes(script);
    } catch {
      return false;
    }
  });
}

/**
 * Ready once every one of the `processes` workers serves the port: the first answer comes as
 * soon as one worker listens, so connections are opened (the primary hands them out in turn)
 * until each worker holds one.
 */
async function waitAllServing(child: Child, script: string, processes: number, timeoutMs = 90_000) {
  if (processes <= 1) return;
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const pids = workerPids(child.proc.pid!, script);
    if (pids.length === processes) {
      const sockets = Array.from({ length: processes * 3 }, () => connect(child.port, "127.0.0.1"));
      await Promise.all(
        sockets.map(
          (socket) =>
            new Promise<void>((resolve) => {
              socket.once("data", () => resolve());
              socket.once("error", () => resolve());
              socket.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            }),
        ),
      );
      const inodes = establishedInodes(child.port);
      const serving = pids.every((pid) => holdsOneOf(pid, inodes));
      for (const socket of sockets) socket.destroy();
      if (serving) return;
    }
    await sleep(250);
  }
  throw new Error(`${child.name}: not every one of ${processes} processes serves the port`);
}

async function text(url: string, headers: Record<string, string>) {
  const res = await fetch(url, { headers });
  return { status: res.status, body: await res.text() };
}

export async function measureScaling(ctx: BenchContext): Promise<ScalingResult> {
  const { log, auth, settings, db } = ctx;
  const serverEnv = {
    ...ctx.baseEnv,
    CEILING_CONTENT_TYPE: ctx.health.contentType,
    DATABASE_URL: db.url,
    DATABASE_POOL_SIZE: String(settings.poolSize),
    JWT_SECRET: settings.secrets.JWT_SECRET,
    LIST_PATH,
  };
  const startCluster = async (
    name: string,
    script: string,
    processes: number,
    readyPath: string,
  ) => {
    const port = await freePort();
    const since = performance.now();
    const child = startNode(
      name,
      CLUSTER_SCRIPT,
      { ...serverEnv, SCRIPT: script, PROCESSES: String(processes), PORT: String(port) },
      port,
    );
    await waitReady(child, since, { path: readyPath, status: readyPath === "/health" ? 200 : 401 });
    await waitAllServing(child, CLUSTER_SCRIPT, processes);
    return { child, url: `http://127.0.0.1:${port}` };
  };

  log(
    `\nworker scaling: the app at WEB_CONCURRENCY ${SCALING_PROCESSES.join(" and ")}, the bare ceilings and Fastify 5 + pg + jose at as many processes (node:cluster, one port)`,
  );
  const rows: ScalingRow[] = [];
  let fastifySameMe = true;
  let fastifySameList = true;
  for (const processes of SCALING_PROCESSES) {
    const appPort = await freePort();
    const since = performance.now();
    const app = startNode(
      `app x${processes}`,
      settings.appScript,
      {
        ...ctx.app.env,
        PORT: String(appPort),
        WEB_CONCURRENCY: String(processes),
        DATA_DIR: await makeTempDir("bench-scaling-"),
      },
      appPort,
    );
    await waitReady(app, since);
    await waitAllServing(app, settings.appScript, processes);
    const appUrl = `http://127.0.0.1:${appPort}`;
    const fastify = await startCluster(
      `fastify x${processes}`,
      "bench/fastify-server.ts",
      processes,
      "/health",
    );
    log(`  app, Fastify at ${processes} process(es) ready`);

    // Fastify answers what the app answers, or the comparison says so.
    const [appMe, fastifyMe, appList, fastifyList] = await Promise.all([
      text(`${appUrl}${ME_PATH}`, auth),
      text(`${fastify.url}${ME_PATH}`, auth),
      text(`${appUrl}${LIST_PATH}`, auth),
      text(`${fastify.url}${LIST_PATH}`, auth),
    ]);
    const keys = (body: string) => Object.keys(JSON.parse(body)).sort().join(",");
    if (
      appMe.status !== 200 ||
      fastifyMe.status !== 200 ||
      keys(appMe.body) !== keys(fastifyMe.body)
    ) {
      fastifySameMe = false;
      log(`  note: Fastify's /me differs: ${fastifyMe.status} ${fastifyMe.body.slice(0, 160)}`);
    }
    if (fastifyList.status !== 200 || fastifyList.body !== appList.body) {
      fastifySameList = false;
      log(
        `  note: Fastify's list differs: ${fastifyList.status} ${fastifyList.body.slice(0, 160)}`,
      );
    }

    for (const route of ["/me", "list"] as const) {
      const path = route === "/me" ? ME_PATH : LIST_PATH;
      const ceiling = await startCluster(
        `ceiling ${route} x${processes}`,
        route === "/me" ? "bench/ceilings/me.ts" : "bench/ceilings/list.ts",
        processes,
        path,
      );
      const [appRun, ceilingRun, fastifyRun] = (await measureInterleaved(
        [
          { name: `app ${route} x${processes}`, url: `${appUrl}${path}`, headers: auth },
          { name: `ceiling ${route} x${processes}`, url: `${ceiling.url}${path}`, headers: auth },
          { name: `fastify ${route} x${processes}`, url: `${fastify.url}${path}`, headers: auth },
        ] satisfies LoadTarget[],
        log,
      )) as [LoadSummary, LoadSummary, LoadSummary];
      await ceiling.child.stop();
      rows.push({ route, processes, app: appRun, ceiling: ceilingRun, fastify: fastifyRun });
    }
    await Promise.all([app.stop(), fastify.child.stop()]);
  }
  return { rows, fastifySameMe, fastifySameList };
}
