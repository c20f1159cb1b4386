import { type ChildProcess, spawn } from "node:child_process";
import pg from "pg";
import type {
  BillingCommand,
  BillingMessage,
  BillingReady,
  BillingRunResult,
} from "./billing-worker";
import { prepareChargeStatement } from "./charge-statement";
import { type CpuUse, cpuSince, cpuSnapshot } from "./cpu";
import { fmt } from "./format";
import { DURATION_S, median, RUNS, WARMUP_S } from "./load";
import { type Child, startNode } from "./proc";

export const BILLING_POOL_SIZE = 10;
export const BILLING_WORKERS = 20;
const BILLING_GRANT = 1_000_000;
export const PGBENCH_SCALE = 10;
export const PGBENCH_CLIENTS = 10;
export const PGBENCH_THREADS = 2;
/** What every bench charge pays for (credits.costs); the ledger check counts its consumptions. */
const CHARGED_OPERATION = "translate";

export interface PgbenchRun {
  tps: number;
  latencyMs: number;
  transactions: number;
}

/** What one run cost the machine, per transaction: where the time went and the WAL written. */
interface RunCost {
  /** PostgreSQL's CPU (every backend) per transaction, microseconds. */
  postgresUs: number;
  /** The client's CPU (the billing worker; pgbench is not followed) per transaction, µs. */
  clientUs: number;
  /** The kernel's part of clientUs. */
  clientSystemUs: number;
  /** pgbench's own CPU per transaction, µs (its runs' client). */
  pgbenchUs: number;
  /** WAL bytes per transaction. */
  walBytes: number;
  /** Share of both cores busy during the run. */
  machineBusy: number;
}

export interface BillingResult {
  users: number;
  grantAmount: number;
  grantMs: number;
  cost: number;
  runs: BillingRunResult[];
  warmup: BillingRunResult;
  chargesPerS: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
  pgbenchInitMs: number;
  pgbenchWarmup: PgbenchRun;
  pgbenchRuns: PgbenchRun[];
  pgbenchTps: number;
  ratio: number;
  check: BillingCheck;
  /** Median per-transaction cost of the charge runs and of the pgbench runs. */
  chargeCost: RunCost;
  pgbenchCost: RunCost;
  /** The app's charge statement driven by pgbench (bench/charge-statement.ts): the database's
   * own ceiling for a charge, without the Node client. */
  statementRuns: PgbenchRun[];
  statementTps: number;
  statementCost: RunCost;
}

interface BillingCheck {
  ok: boolean;
  users: number;
  balanceMatches: number;
  balanceMismatches: number;
  lotMismatches: number;
  /** credit_consumptions rows for the bench operation vs successful charges counted. */
  consumptions: number;
  chargesCounted: number;
}

// pgbench processes still running, killed synchronously on exit/failure.
const pgbenchProcs = new Set<ChildProcess>();

export function killPgbenchSync(): void {
  for (const proc of pgbenchProcs) {
    if (proc.exitCode === null && proc.signalCode === null) {
      try {
        proc.kill("SIGKILL");
      } catch {
        // already gone
      }
    }
  }
  pgbenchProcs.clear();
}

/** libpq environment for a postgres:// URL, so pgbench reaches the same server as the bench. */
function libpqEnv(url: string): NodeJS.ProcessEnv {
  const u = new URL(url);
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith("PG")) delete env[key];
  env.PGHOST = u.hostname || "127.0.0.1";
  env.PGPORT = u.port || "5432";
  if (u.username) env.PGUSER = decodeURIComponent(u.username);
  if (u.password) env.PGPASSWORD = decodeURIComponent(u.password);
  env.PGDATABASE = u.pathname.slice(1);
  return env;
}

function pgbench(args: string[], url: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const proc = spawn("pgbench", args, { env: libpqEnv(url), stdio: ["ignore", "pipe", "pipe"] });
    pgbenchProcs.add(proc);
    let output = "";
    proc.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    proc.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    const timer = setTimeout(() => proc.kill("SIGKILL"), timeoutMs);
    proc.on("error", (error) => {
      clearTimeout(timer);
      pgbenchProcs.delete(proc);
      reject(error);
    });
    proc.on("exit", (code, signal) => {
      clearTimeout(timer);
      pgbenchProcs.delete(proc);
      if (code === 0) resolve(output);
      else reject(new Error(`pgbench ${args.join(" ")}: exit ${code ?? signal}\n${output}`));
    });
  });
}

async function pgbenchRun(url: string, durationS: number): Promise<PgbenchRun> {
  const output = await pgbench(
    [
      "-N",
      "-c",
      String(PGBENCH_CLIENTS),
      "-j",
      String(PGBENCH_THREADS),
      "-T",
      String(durationS),
      "-n",
    ],
    url,
    (durationS + 30) * 1000,
  );
  return pgbenchFigures(output);
}

/** A SQL script run by pgbench as prepared statements (the app's statements are named). */
export async function pgbenchScript(
  url: string,
  file: string,
  options: { clients: number; threads: number; seconds: number },
): Promise<PgbenchRun> {
  const { clients, threads, seconds } = options;
  const output = await pgbench(
    ["-n", "-M", "prepared", "-c", String(clients), "-j", String(threads)].concat([
      "-T",
      String(seconds),
      "-f",
      file,
    ]),
    url,
    (seconds + 30) * 1000,
  );
  return pgbenchFigures(output);
}

function pgbenchFigures(output: string): PgbenchRun {
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(output);
  if (!tps) throw new Error(`pgbench: no tps in output:\n${output}`);
  const latency = /latency average = ([\d.]+) ms/.exec(output);
  const transactions = /number of transactions actually processed: (\d+)/.exec(output);
  return {
    tps: Number(tps[1]),
    latencyMs: latency ? Number(latency[1]) : Number.NaN,
    transactions: transactions ? Number(transactions[1]) : 0,
  };
}

const medianCost = (costs: RunCost[]): RunCost => ({
  postgresUs: median(costs.map((c) => c.postgresUs)),
  clientUs: median(costs.map((c) => c.clientUs)),
  clientSystemUs: median(costs.map((c) => c.clientSystemUs)),
  pgbenchUs: median(costs.map((c) => c.pgbenchUs)),
  walBytes: median(costs.map((c) => c.walBytes)),
  machineBusy: median(costs.map((c) => c.machineBusy)),
});

/** The billing worker process, with request/response over its IPC channel. */
function startBillingWorker(dbUrl: string, env: NodeJS.ProcessEnv) {
  const child: Child = startNode(
    "billing worker",
    "bench/billing-worker.ts",
    {
      ...env,
      BILLING_DATABASE_URL: dbUrl,
      BILLING_POOL_SIZE: String(BILLING_POOL_SIZE),
      BILLING_WORKERS: String(BILLING_WORKERS),
      BILLING_GRANT: String(BILLING_GRANT),
      BILLING_OPERATION: CHARGED_OPERATION,
    },
    0,
    { ipc: true },
  );
  const next = <T extends BillingMessage["type"]>(
    type: T,
    timeoutMs: number,
  ): Promise<Extract<BillingMessage, { type: T }>> =>
    new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        child.proc.off("message", onMessage);
        child.proc.off("exit", onExit);
      };
      const onMessage = (message: BillingMessage) => {
        done();
        if (message.type === type) resolve(message as Extract<BillingMessage, { type: T }>);
        else if (message.type === "error") reject(new Error(`billing worker: ${message.message}`));
        else reject(new Error(`billing worker: expected ${type}, got ${message.type}`));
      };
      const onExit = (code: number | null) => {
        done();
        reject(new Error(`billing worker exited with ${code}:\n${child.tail()}`));
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`billing worker: no ${type} after ${timeoutMs} ms:\n${child.tail()}`));
      }, timeoutMs);
      child.proc.on("message", onMessage);
      child.proc.once("exit", onExit);
    });
  const command = (message: BillingCommand) => child.proc.send(message);
  return {
    child,
    ready: () => next("ready", 60_000),
    run: async (durationS: number) => {
      const result = next("result", (durationS + 30) * 1000);
      command({ type: "run", durationS });
      return result;
    },
    stop: async () => {
      if (child.proc.connected) command({ type: "stop" });
      await Promise.race([child.exited, new Promise((r) => setTimeout(r, 5000))]);
      await child.stop();
    },
  };
}

async function checkBalances(dbUrl: string, chargesCounted: number): Promise<BillingCheck> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{
      users: number;
      matches: number;
      mismatches: number;
      lot_mismatches: number;
      consumptions: number;
    }>(
      `with ledger as (select user_id, sum(delta)::bigint as total from credit_ledger group by user_id),
            lots as (select user_id, sum(remaining)::bigint as total from credit_lots group by user_id)
       select count(*)::int as users,
              count(*) filter (where uc.balance = coalesce(l.total, 0))::int as matches,
              count(*) filter (where uc.balance <> coalesce(l.total, 0))::int as mismatches,
              count(*) filter (where uc.balance <> coalesce(lt.total, 0))::int as lot_mismatches,
              (select count(*)::int from credit_consumptions where operation = $1) as consumptions
       from users u
       left join user_credits uc on uc.user_id = u.id
       left join ledger l on l.user_id = u.id
       left join lots lt on lt.user_id = u.id`,
      [CHARGED_OPERATION],
    );
    const row = rows[0]!;
    return {
      ok:
        row.mismatches === 0 &&
        row.matches === row.users &&
        row.lot_mismatches === 0 &&
        row.consumptions === chargesCounted,
      users: row.users,
      balanceMatches: row.matches,
      balanceMismatches: row.users - row.matches,
      lotMismatches: row.lot_mismatches,
      consumptions: row.consumptions,
      chargesCounted,
    };
  } finally {
    await client.end();
  }
}

/**
 * Charges per second through the app's chargeCredits (child process, pool of
 * BILLING_POOL_SIZE, BILLING_WORKERS concurrent workers) against `pgbench -N` on a separate
 * database of the same server, runs interleaved (warm-up each, then C1 P1 C2 P2 C3 P3), median.
 * The pgbench database is created and dropped through the callbacks; on failure the caller's
 * cleanup must drop it.
 */
export async function measureBilling(options: {
  benchDbUrl: string;
  pgbenchDbUrl: string;
  createPgbenchDb: () => Promise<void>;
  dropPgbenchDb: () => Promise<void>;
  env: NodeJS.ProcessEnv;
  /** Where the pgbench script of the charge statement is written. */
  dir: string;
  log: (line: string) => void;
}): Promise<BillingResult> {
  const { log } = options;
  const worker = startBillingWorker(options.benchDbUrl, options.env);
  try {
    const ready: BillingReady = await worker.ready();
    log(
      `billing: ${ready.users} users granted ${ready.grantAmount} credits each in ${ready.grantMs.toFixed(0)} ms`,
    );

    await options.createPgbenchDb();
    const since = performance.now();
    await pgbench(["-i", "-s", String(PGBENCH_SCALE), "-q"], options.pgbenchDbUrl, 120_000);
    const pgbenchInitMs = performance.now() - since;
    log(`pgbench -i -s ${PGBENCH_SCALE}: ${pgbenchInitMs.toFixed(0)} ms`);

    const wal = new pg.Client({ connectionString: options.benchDbUrl });
    // On a failure the bench drops the database under it: that is not a second error.
    wal.on("error", () => {});
    await wal.connect();
    const walLsn = async () =>
      (await wal.query<{ lsn: string }>("select pg_current_wal_lsn()::text as lsn")).rows[0]!.lsn;
    const walBytesSince = async (lsn: string) =>
      Number(
        (
          await wal.query<{ bytes: string }>(
            "select pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::bigint::text as bytes",
            [lsn],
          )
        ).rows[0]!.bytes,
      );
    /** Runs `work`, then its CPU and WAL per transaction (`count` of its result). */
    const costed = async <T>(work: () => Promise<T>, count: (result: T) => number) => {
      const lsn = await walLsn();
      const cpu = cpuSnapshot({ client: worker.child.proc.pid });
      const result = await work();
      const use: CpuUse = cpuSince(cpu);
      const n = Math.max(1, count(result));
      const cost: RunCost = {
        postgresUs: ((use.coreS.postgres ?? 0) * 1e6) / n,
        clientUs: ((use.coreS.client ?? 0) * 1e6) / n,
        clientSystemUs: ((use.systemCoreS.client ?? 0) * 1e6) / n,
        pgbenchUs: ((use.coreS.pgbench ?? 0) * 1e6) / n,
        walBytes: (await walBytesSince(lsn)) / n,
        machineBusy: use.machineBusy,
      };
      return { result, cost };
    };
    const chargeCosts: RunCost[] = [];
    const pgbenchCosts: RunCost[] = [];
    const statementCosts: RunCost[] = [];
    const statement = await prepareChargeStatement(wal, {
      url: options.benchDbUrl,
      dir: options.dir,
      operation: CHARGED_OPERATION,
      clients: PGBENCH_CLIENTS,
      threads: PGBENCH_THREADS,
    });
    const statementWarmup = await statement.run(WARMUP_S);
    const statementRuns: PgbenchRun[] = [];

    const warmup = await worker.run(WARMUP_S);
    if (warmup.charges === 0) {
      throw new Error(`billing warm-up: no charge succeeded (${warmup.firstError ?? "?"})`);
    }
    const pgbenchWarmup = await pgbenchRun(options.pgbenchDbUrl, WARMUP_S);
    const runs: BillingRunResult[] = [];
    const pgbenchRuns: PgbenchRun[] = [];
    for (let i = 0; i < RUNS; i++) {
      const { result: charge, cost: chargeCost } = await costed(
        () => worker.run(DURATION_S),
        (r) => r.charges,
      );
      runs.push(charge);
      chargeCosts.push(chargeCost);
      log(
        `  charges run ${i + 1}/${RUNS}: ${fmt(charge.chargesPerS)}/s, p99 ${fmt(charge.p99Ms, 1)} ms` +
          (charge.failures ? `  (failures ${charge.failures}: ${charge.firstError})` : ""),
      );
      const { result: pgb, cost: pgbCost } = await costed(
        () => pgbenchRun(options.pgbenchDbUrl, DURATION_S),
        (r) => r.transactions,
      );
      pgbenchRuns.push(pgb);
      pgbenchCosts.push(pgbCost);
      log(`  pgbench -N run ${i + 1}/${RUNS}: ${fmt(pgb.tps)} tps`);
      const { result: st, cost: stCost } = await costed(
        () => statement.run(DURATION_S),
        (r) => r.transactions,
      );
      statementRuns.push(st);
      statementCosts.push(stCost);
      log(`  the charge statement by pgbench, run ${i + 1}/${RUNS}: ${fmt(st.tps)} tps`);
    }
    await statement.drop();
    await wal.end();
    await worker.stop();
    await options.dropPgbenchDb();

    // Every consumption the check finds: the worker's charges and pgbench's.
    const chargesCounted =
      [warmup, ...runs].reduce((sum, r) => sum + r.charges, 0) +
      [statementWarmup, ...statementRuns].reduce((sum, r) => sum + r.transactions, 0);
    const check = await checkBalances(options.benchDbUrl, chargesCounted);
    const chargesPerS = median(runs.map((r) => r.chargesPerS));
    const pgbenchTps = median(pgbenchRuns.map((r) => r.tps));
    return {
      users: ready.users,
      grantAmount: ready.grantAmount,
      grantMs: ready.grantMs,
      cost: runs[0]?.cost ?? 0,
      runs,
      warmup,
      chargesPerS,
      p50Ms: median(runs.map((r) => r.p50Ms)),
      p99Ms: median(runs.map((r) => r.p99Ms)),
      failures: [warmup, ...runs].reduce((sum, r) => sum + r.failures, 0),
      pgbenchInitMs,
      pgbenchWarmup,
      pgbenchRuns,
      pgbenchTps,
      ratio: chargesPerS / pgbenchTps,
      check,
      chargeCost: medianCost(chargeCosts),
      pgbenchCost: medianCost(pgbenchCosts),
      statementRuns,
      statementTps: median(statementRuns.map((r) => r.tps)),
      statementCost: medianCost(statementCosts),
    };
  } finally {
    await worker.stop();
    killPgbenchSync();
  }
}
