import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type pg from "pg";
import { healthOverview } from "../../src/modules/customers/health";
import { listCustomers } from "../../src/modules/customers/queries";
import type { Deps } from "../../src/ports";
import { SEEDED_CUSTOMER_IDENTITY } from "../customers";
import { captureStatement } from "../list-statement";
import { median } from "../load";
import {
  baseEnv,
  type Child,
  freePort,
  readProcMemory,
  resetPeakRss,
  startNode,
  waitReady,
} from "../proc";
import { withClient } from "../resources";
import { SETTINGS } from "../settings";

/**
 * Issue #13 item 3: how the customer list, the health overview and the export grow with one
 * user's customer count. One app (production settings, PostgreSQL), one user registered through
 * the API, customers added in SQL in steps (1k, then to 10k, then to 100k), every figure the
 * median of SCALE_RUNS runs at each step.
 */

const SCALE_SIZES = [1_000, 10_000, 100_000] as const;
export const SCALE_RUNS = 3;
/** Modest, fixed concurrency: latency as the data grows, not throughput. */
export const SCALE_CONNECTIONS = 4;
export const SCALE_LOAD_S = 2;
/** Sequential health-overview calls per run (after two warm-ups). */
export const SCALE_OVERVIEW_CALLS = 15;
const LIST_STATUS = "negotiating";
/** In front of the company of every 33rd customer, as bench/customers.ts seeds it. */
const LIST_QUERY = "zenith";
const SCALE_LIST_PATHS = {
  search: `/api/v1/customers?size=20&status=${LIST_STATUS}&q=${LIST_QUERY}`,
  first: "/api/v1/customers?size=20",
} as const;

type ListKind = keyof typeof SCALE_LIST_PATHS;
type ExportFormat = "csv" | "xlsx";

interface Latency {
  p50Ms: number;
  p99Ms: number;
  rps: number;
  runs: { p50Ms: number; p99Ms: number; rps: number; non2xx: number }[];
}

interface ExportRun {
  ms: number;
  bytes: number;
  rows: number;
  /** Peak RSS growth of the app over its RSS just before the request (VmHWM, reset before). */
  peakGrowthKb: number;
}

/** One download with full collections forced in the app part-way through it. */
interface RetainedRun {
  /** Live heap + external after a full GC, median of the probes, minus before the request. */
  retainedKb: number;
  /** Each probe's heap + external after its full GC, minus before the request, in order. */
  probesKb: number[];
  /** The heap before the largest of those collections: what V8 had let accumulate. */
  heapBeforeGcKb: number;
  /** The same heap after it. */
  heapAfterGcKb: number;
}

interface ExportFigure {
  ms: number;
  peakGrowthKb: number;
  bytes: number;
  runs: ExportRun[];
  /** Medians of `retainedRuns`. */
  retainedKb: number;
  heapBeforeGcKb: number;
  heapAfterGcKb: number;
  retainedRuns: RetainedRun[];
}

export interface ScaleStep {
  customers: number;
  seedMs: number;
  list: Record<ListKind, Latency>;
  overview: { p50Ms: number; runs: number[] };
  exports: Record<ExportFormat, ExportFigure>;
  /** EXPLAIN (ANALYZE, BUFFERS) summaries of the statements behind the figures. */
  plans: Record<PlanName, PlanSummary>;
}

type PlanName = "listSearch" | "listFirst" | "overview";

interface PlanSummary {
  /**
   * Reading every match for the list's exact total, ms of executionMs: the search's materialised
   * matches (CTE m, src/db/page.ts matchedPageSql) or else the count subquery (an InitPlan);
   * null where neither is.
   */
  matchesMs: number | null;
  executionMs: number;
  sharedHit: number;
  sharedRead: number;
  /** Top node and the first index it names, for the report. */
  shape: string;
}

export interface ScaleResult {
  steps: ScaleStep[];
  /** Whether VmHWM could be reset before each export (else the sampled RSS peak is used). */
  hwmReset: boolean;
  pgVersion: string;
}

/**
 * Preloaded into the app (NODE_OPTIONS `--import`, with `--expose-gc`; nothing else about how it
 * runs changes): on SIGUSR2 it runs a full collection and appends `<n> <heap+external before>
 * <heap+external after>` (bytes) to the file BENCH_HEAP_PROBE_FILE names. An export's RSS peak is
 * mostly garbage V8 has not collected yet (it promotes the batches to old space and collects
 * them when its old-space limit is reached, a limit set by the process's history, not by the
 * export); the heap after a forced collection part-way through the download is what the export
 * really holds.
 */
const HEAP_PROBE_MODULE = `import { appendFileSync } from "node:fs";
let n = 0;
const used = () => { const m = process.memoryUsage(); return m.heapUsed + m.external; };
process.on("SIGUSR2", () => {
  const before = used();
  // Twice: what the first collection's weak callbacks release is only freed by a second.
  globalThis.gc();
  globalThis.gc();
  appendFileSync(process.env.BENCH_HEAP_PROBE_FILE, \`\${++n} \${before} \${used()}\\n\`);
});`;

/** Fractions of the download at which the heap probe runs. */
export const SCALE_HEAP_PROBES = [0.25, 0.5, 0.75] as const;

/** Asks the app for its heap after a full collection (see HEAP_PROBE_MODULE). */
class HeapProbe {
  private asked = 0;

  constructor(
    private readonly pid: number,
    private readonly file: string,
  ) {}

  async sample(): Promise<{ beforeKb: number; afterKb: number }> {
    const n = ++this.asked;
    process.kill(this.pid, "SIGUSR2");
    const until = performance.now() + 10_000;
    while (performance.now() < until) {
      const line = (existsSync(this.file) ? readFileSync(this.file, "utf8") : "")
        .split("\n")
        .find((l) => l.startsWith(`${n} `));
      if (line) {
        const [, before, after] = line.split(" ").map(Number);
        return { beforeKb: before! / 1024, afterKb: after! / 1024 };
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error(`heap probe ${n}: no answer from the app`);
  }
}

/**
 * Customers `from`..`to` (1-based) for `userId`: every status, two thirds contacted over the
 * past months, half with a follow-up (a quarter of those overdue), values in USD and EUR with
 * some unset, tags, notes, and the bench list's search term in every 33rd company.
 */
async function seedRange(client: pg.Client, userId: string, from: number, to: number) {
  // A seller with 100,000 customers is on a plan without a customer cap; the triggers stay on,
  // so the count the list's unfiltered total reads (org_usage) is kept as in use.
  await client.query(
    `update orgs set plan = 'business', plan_expires_at = null
     where id = (select org_id from org_members where user_id = $1)`,
    [userId],
  );
  await client.query(
    `insert into customers (user_id, company, contact_name, email, phone, country, status, tags,
       estimated_value, estimated_currency, notes, last_contact_at, next_followup_at,
       created_at, updated_at)
     select $1::uuid,
       ${SEEDED_CUSTOMER_IDENTITY},
       case when i % 6 = 0 then null else (i * 7919) % 5000000 end,
       case when i % 5 = 0 then 'EUR' else 'USD' end,
       case when i % 5 = 0 then 'Met at the trade fair' end,
       case when i % 3 <> 0 then now() - make_interval(days => (i * 13) % 120) end,
       case when i % 2 = 0 then now() + make_interval(days => (i * 7) % 40 - 10) end,
       ts, ts
     from generate_series($2::int, $3::int) as i,
       lateral (select now() - make_interval(secs => (i % 100000) * 315.36 + (i * 7919) % 3600) as ts) t`,
    [userId, from, to],
  );
  // As autovacuum does after that many inserts: the steady state a seller's list runs in.
  await client.query("vacuum analyze customers");
}

async function registerUser(appUrl: string): Promise<{ token: string; email: string }> {
  const email = `bench-scale-${process.pid}@example.com`;
  const res = await fetch(`${appUrl}/api/v1/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": "198.19.250.1" },
    body: JSON.stringify({ email, password: SETTINGS.password, name: "Bench scale" }),
  });
  const body = (await res.json()) as { access_token?: string };
  if (res.status !== 201 || !body.access_token) {
    throw new Error(`register: ${res.status} ${JSON.stringify(body)}`);
  }
  return { token: body.access_token, email };
}

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: SCALE_CONNECTIONS });

/** One GET over a kept-alive socket; its status and the ms to the last byte. */
function timedRequest(url: URL, headers: Record<string, string>): Promise<[number, number]> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: keepAlive, headers }, (res) => {
      res.on("data", () => {});
      res.on("end", () => resolve([res.statusCode ?? 0, performance.now() - started]));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

/**
 * SCALE_CONNECTIONS closed loops for SCALE_LOAD_S seconds, latencies timed to the microsecond
 * (autocannon's histogram counts whole milliseconds, too coarse for a 1 ms list at 1k).
 */
async function loadRun(url: string, headers: Record<string, string>) {
  const target = new URL(url);
  const latencies: number[] = [];
  let failed = 0;
  const until = performance.now() + SCALE_LOAD_S * 1000;
  const loop = async () => {
    while (performance.now() < until) {
      const [status, ms] = await timedRequest(target, headers);
      if (status === 200) latencies.push(ms);
      else failed++;
    }
  };
  await Promise.all(Array.from({ length: SCALE_CONNECTIONS }, loop));
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
  return {
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    rps: latencies.length / SCALE_LOAD_S,
    non2xx: failed,
  };
}

async function measureList(appUrl: string, auth: Record<string, string>, path: string) {
  await loadRun(`${appUrl}${path}`, auth); // warm-up: plans cached, pages in shared buffers
  const runs: Latency["runs"] = [];
  for (let i = 0; i < SCALE_RUNS; i++) runs.push(await loadRun(`${appUrl}${path}`, auth));
  const bad = runs.reduce((sum, r) => sum + r.non2xx, 0);
  if (bad > 0) throw new Error(`list ${path}: ${bad} failed responses`);
  return {
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    rps: median(runs.map((r) => r.rps)),
    runs,
  };
}

async function timedGet(url: string, auth: Record<string, string>) {
  const started = performance.now();
  const res = await fetch(url, { headers: auth });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const ms = performance.now() - started;
  if (res.status !== 200) {
    throw new Error(`${url}: ${res.status} ${new TextDecoder().decode(bytes.slice(0, 300))}`);
  }
  return { ms, bytes };
}

async function measureOverview(appUrl: string, auth: Record<string, string>, expected: number) {
  const url = `${appUrl}/api/v1/customers/health-overview`;
  const first = await timedGet(url, auth);
  const total = (JSON.parse(new TextDecoder().decode(first.bytes)) as { total: number }).total;
  if (total !== expected) throw new Error(`health overview: total ${total}, expected ${expected}`);
  await timedGet(url, auth);
  const runs: number[] = [];
  for (let r = 0; r < SCALE_RUNS; r++) {
    const times: number[] = [];
    for (let i = 0; i < SCALE_OVERVIEW_CALLS; i++) times.push((await timedGet(url, auth)).ms);
    runs.push(median(times));
  }
  return { p50Ms: median(runs), runs };
}

/** Data rows in an export: CRLF-terminated CSV lines, or `<row` elements of the sheet. */
async function exportedRows(bytes: Uint8Array, format: ExportFormat): Promise<number> {
  if (format === "csv") {
    const text = new TextDecoder().decode(bytes);
    // Quoted cells may hold CRLF only inside quotes; the seed's cells hold none.
    return text.split("\r\n").length - 2;
  }
  const JSZip = (await import("jszip")).default;
  const zip = await JSZip.loadAsync(bytes);
  const xml = await zip.file("xl/worksheets/sheet1.xml")!.async("string");
  return (xml.match(/<row /g)?.length ?? 0) - 1;
}

/**
 * One download read chunk by chunk, the heap probe run each time the bytes received pass one of
 * SCALE_HEAP_PROBES of `size` (the export's size, known from the runs before).
 */
async function retainedRun(
  url: string,
  auth: Record<string, string>,
  probe: HeapProbe,
  size: number,
): Promise<RetainedRun> {
  const base = await probe.sample();
  const res = await fetch(url, { headers: auth });
  if (res.status !== 200 || !res.body) throw new Error(`${url}: ${res.status}`);
  const reader = res.body.getReader();
  const samples: { beforeKb: number; afterKb: number }[] = [];
  let received = 0;
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    received += next.value.byteLength;
    while (samples.length < SCALE_HEAP_PROBES.length) {
      if (received < SCALE_HEAP_PROBES[samples.length]! * size) break;
      samples.push(await probe.sample());
    }
  }
  if (samples.length === 0) throw new Error(`${url}: no heap probe ran (${received} bytes)`);
  const largest = samples.reduce((a, b) => (b.afterKb > a.afterKb ? b : a));
  const probesKb = samples.map((p) => p.afterKb - base.afterKb);
  return {
    retainedKb: median(probesKb),
    probesKb,
    heapBeforeGcKb: Math.max(...samples.map((p) => p.beforeKb)),
    heapAfterGcKb: largest.afterKb,
  };
}

async function measureExport(
  appUrl: string,
  auth: Record<string, string>,
  pid: number,
  probe: HeapProbe,
  format: ExportFormat,
  expected: number,
  log: (line: string) => void,
): Promise<ExportFigure & { hwmReset: boolean }> {
  const url = `${appUrl}/api/v1/customers/export?format=${format}`;
  const runs: ExportRun[] = [];
  let hwmReset = true;
  for (let r = 0; r < SCALE_RUNS; r++) {
    // Let the previous run's garbage go first, so each run starts from the same place.
    await new Promise((resolve) => setTimeout(resolve, 300));
    hwmReset = resetPeakRss(pid) && hwmReset;
    const before = readProcMemory(pid);
    let sampled = before.rssKb;
    const sampler = setInterval(() => {
      try {
        sampled = Math.max(sampled, readProcMemory(pid).rssKb);
      } catch {
        // the app is gone: the request fails below
      }
    }, 10);
    let got: { ms: number; bytes: Uint8Array };
    try {
      got = await timedGet(url, auth);
    } finally {
      clearInterval(sampler);
    }
    const after = readProcMemory(pid);
    const peak = Math.max(sampled, after.rssKb, hwmReset ? after.hwmKb : 0);
    const rows = await exportedRows(got.bytes, format);
    if (rows !== expected) throw new Error(`${format} export: ${rows} rows, expected ${expected}`);
    runs.push({ ms: got.ms, bytes: got.bytes.byteLength, rows, peakGrowthKb: peak - before.rssKb });
    log(
      `    export ${format} run ${r + 1}/${SCALE_RUNS}: ${got.ms.toFixed(0)} ms, ${(got.bytes.byteLength / 1024).toFixed(0)} KB, peak +${((peak - before.rssKb) / 1024).toFixed(1)} MB`,
    );
  }
  // Separate runs: a forced collection would also take the garbage out of the RSS peak above.
  const retainedRuns: RetainedRun[] = [];
  for (let r = 0; r < SCALE_RUNS; r++) {
    const run = await retainedRun(url, auth, probe, runs[0]!.bytes);
    retainedRuns.push(run);
    const mb = (kb: number) => (kb / 1024).toFixed(1);
    log(
      `    export ${format} heap probe ${r + 1}/${SCALE_RUNS}: retained +${mb(run.retainedKb)} MB (at ${SCALE_HEAP_PROBES.join(" / ")}: ${run.probesKb.map(mb).join(" / ")} MB; heap ${mb(run.heapBeforeGcKb)} MB before a full GC, ${mb(run.heapAfterGcKb)} MB after)`,
    );
  }
  return {
    ms: median(runs.map((r) => r.ms)),
    peakGrowthKb: median(runs.map((r) => r.peakGrowthKb)),
    bytes: runs[0]!.bytes,
    runs,
    retainedKb: median(retainedRuns.map((r) => r.retainedKb)),
    heapBeforeGcKb: median(retainedRuns.map((r) => r.heapBeforeGcKb)),
    heapAfterGcKb: median(retainedRuns.map((r) => r.heapAfterGcKb)),
    retainedRuns,
    hwmReset,
  };
}

// --- plans ------------------------------------------------------------------------------------

interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  Plans?: PlanNode[];
  "Subplan Name"?: string;
  "Actual Total Time"?: number;
}

function firstIndex(node: PlanNode): string | undefined {
  if (node["Index Name"]) return node["Index Name"];
  for (const child of node.Plans ?? []) {
    const found = firstIndex(child);
    if (found) return found;
  }
  return undefined;
}

function matchesMsOf(top: PlanNode): number | null {
  const sub = (test: (name: string) => boolean) =>
    top.Plans?.find((p) => test(p["Subplan Name"] ?? ""))?.["Actual Total Time"];
  return sub((name) => name === "CTE m") ?? sub((name) => name.startsWith("InitPlan")) ?? null;
}

async function explain(client: pg.Client, statement: string, params: unknown[]) {
  const { rows } = await client.query<{ "QUERY PLAN": unknown }>(
    `explain (analyze, buffers, format json) ${statement}`,
    params,
  );
  const raw = rows[0]!["QUERY PLAN"];
  const top = (typeof raw === "string" ? JSON.parse(raw) : raw) as {
    Plan: PlanNode & { "Shared Hit Blocks": number; "Shared Read Blocks": number };
    "Execution Time": number;
  }[];
  const plan = top[0]!;
  const index = firstIndex(plan.Plan);
  return {
    executionMs: plan["Execution Time"],
    sharedHit: plan.Plan["Shared Hit Blocks"],
    sharedRead: plan.Plan["Shared Read Blocks"],
    shape: `${plan.Plan["Node Type"]}${index ? ` via ${index}` : ""}`,
    matchesMs: matchesMsOf(plan.Plan),
  };
}

interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * The statements the app sends for the list search and the health overview, exactly: the app's
 * own query functions run against a Db that records what it is asked to execute.
 */
async function scaleStatements(userId: string): Promise<Record<PlanName, Statement>> {
  const now = new Date().toISOString();
  const listSearch = await captureStatement((db) =>
    listCustomers(db, {
      userId,
      now,
      status: LIST_STATUS,
      q: LIST_QUERY,
      sort: "-created_at",
      page: 1,
      size: 20,
    }),
  );
  const listFirst = await captureStatement((db) =>
    listCustomers(db, { userId, now, sort: "-created_at", page: 1, size: 20 }),
  );
  const overview = await captureStatement((db) =>
    healthOverview({ db, clock: { now: () => new Date(now) } } as unknown as Deps, userId),
  );
  return { listSearch, listFirst, overview };
}

async function plansFor(client: pg.Client, userId: string) {
  const statements = await scaleStatements(userId);
  return {
    listSearch: await explain(client, statements.listSearch.sql, statements.listSearch.params),
    listFirst: await explain(client, statements.listFirst.sql, statements.listFirst.params),
    overview: await explain(client, statements.overview.sql, statements.overview.params),
  };
}

// --- the scenario -----------------------------------------------------------------------------

export async function measureScale(ctx: {
  adminUrl: string;
  log: (line: string) => void;
}): Promise<ScaleResult> {
  const { log } = ctx;
  const dbName = `bench_scale_${process.pid}`;
  const dbUrl = new URL(ctx.adminUrl);
  dbUrl.pathname = `/${dbName}`;
  const url = dbUrl.toString();
  const pgVersion = await withClient(ctx.adminUrl, async (c) => {
    await c.query(`drop database if exists "${dbName}" with (force)`);
    await c.query(`create database "${dbName}"`);
    const { rows } = await c.query<{ v: string }>("select current_setting('server_version') as v");
    return rows[0]!.v;
  });
  const dataDir = await mkdtemp(join(tmpdir(), "bench-scale-"));
  const heapProbeFile = join(dataDir, "heap-probe.log");
  let app: Child | undefined;
  try {
    const port = await freePort();
    const appUrl = `http://127.0.0.1:${port}`;
    app = startNode(
      "app (scale)",
      SETTINGS.appScript,
      {
        ...baseEnv(),
        ...SETTINGS.secrets,
        APP_ENV: "production",
        PORT: String(port),
        DATABASE_URL: url,
        DATABASE_POOL_SIZE: String(SETTINGS.poolSize),
        ALLOW_MEMORY_RATE_LIMIT: "true",
        PUBLIC_BASE_URL: appUrl,
        CORS_ORIGINS: appUrl,
        FRONTEND_URL: "https://app.example.test",
        ALLOW_NO_MAIL: "true",
        LOG_LEVEL: "warn",
        DATA_DIR: dataDir,
        TRUST_PROXY: "1",
        NODE_OPTIONS: `--expose-gc --import=data:text/javascript;base64,${Buffer.from(HEAP_PROBE_MODULE).toString("base64")}`,
        BENCH_HEAP_PROBE_FILE: heapProbeFile,
      },
      port,
    );
    await waitReady(app, performance.now());
    const pid = app.proc.pid;
    if (pid === undefined) throw new Error("app has no pid");
    const probe = new HeapProbe(pid, heapProbeFile);
    log(`scale: database ${dbName}, app on :${port}`);
    const user = await registerUser(appUrl);
    const auth = { authorization: `Bearer ${user.token}` };
    const steps: ScaleStep[] = [];
    let hwmReset = true;
    await withClient(url, async (client) => {
      const { rows } = await client.query<{ id: string }>("select id from users where email = $1", [
        user.email,
      ]);
      const userId = rows[0]!.id;
      let seeded = 0;
      for (const size of SCALE_SIZES) {
        const started = performance.now();
        await seedRange(client, userId, seeded + 1, size);
        seeded = size;
        const seedMs = performance.now() - started;
        log(`  ${size} customers (seeded in ${seedMs.toFixed(0)} ms)`);
        const list = {
          search: await measureList(appUrl, auth, SCALE_LIST_PATHS.search),
          first: await measureList(appUrl, auth, SCALE_LIST_PATHS.first),
        };
        const f = (v: number) => v.toFixed(1);
        log(
          `    list search p50 ${f(list.search.p50Ms)} ms p99 ${f(list.search.p99Ms)} ms; first page p50 ${f(list.first.p50Ms)} ms p99 ${f(list.first.p99Ms)} ms`,
        );
        const overview = await measureOverview(appUrl, auth, size);
        log(`    health overview p50 ${overview.p50Ms.toFixed(1)} ms`);
        const csv = await measureExport(appUrl, auth, pid, probe, "csv", size, log);
        const xlsx = await measureExport(appUrl, auth, pid, probe, "xlsx", size, log);
        hwmReset = hwmReset && csv.hwmReset && xlsx.hwmReset;
        const plans = await plansFor(client, userId);
        steps.push({
          customers: size,
          seedMs,
          list,
          overview,
          exports: { csv, xlsx },
          plans,
        });
      }
    });
    return { steps, hwmReset, pgVersion };
  } finally {
    keepAlive.destroy();
    await app?.stop();
    await rm(dataDir, { recursive: true, force: true });
    await withClient(ctx.adminUrl, (c) =>
      c.query(`drop database if exists "${dbName}" with (force)`),
    ).catch((error) => log(`could not drop database ${dbName}: ${String(error)}`));
  }
}
