import { cpus } from "node:os";
import pg from "pg";
import { parseConfig } from "../../src/config";
import { buildDeps } from "../../src/deps";
import type { CronTask } from "../../src/jobs/schedules";
import { runScheduledTasks } from "../../src/jobs/tasks";
import { createLogger } from "../../src/lib/logger";
import { recyclePoolCustomers } from "../../src/modules/customers/pool/recycle";
import type { Deps } from "../../src/ports";
import { createMemoryRateLimiter } from "../../src/providers/ratelimit/memory";
import { migratePostgres, openPostgresDatabase } from "../../src/runtime/node/database";
import { nodeResolver } from "../../src/runtime/node/dns";
import { createNodePasswordHasher } from "../../src/runtime/node/password";
import { median } from "../load";
import { SETTINGS } from "../settings";

/**
 * Issue #13 item 4, issue #25 item 7: the scheduled tasks at 1,000,000 customers and 100,000
 * users. Each task runs in-process through runScheduledTasks (the real task functions, deps on
 * `pg`; issue #22's pool recycle through recyclePoolCustomers, its own entry point) three ways a
 * run, each from the same due work put back:
 *   - alone: nothing else writing;
 *   - beside WRITERS connections doing what users do to the rows the task is working on; every
 *     write's latency is recorded, beside the same writers' latency with no task running (the
 *     baseline), and a sampler reads pg_stat_activity for writers waiting on a lock (how long
 *     the statement has been waiting), so a slow write can be told apart from a write blocked
 *     by the task;
 *   - with nothing due: run again at once, after the run beside the writers took its due work
 *     (the next minute's or hour's run on a quiet deployment). The customer reminders and the
 *     pool recycle's warnings stay due until a seller acts (a rerun reports them again), so
 *     theirs runs with the clock IDLE_CLOCK_DAYS back, before any seeded row came due: the run
 *     reads what its indexes say is due and finds nothing.
 */

/** Connections writing beside a task, and the pause each takes between two writes. */
const WRITERS = 40;
const WRITER_PAUSE_MS = 5;
/** How long the baseline writes run with no task. */
const BASELINE_MS = 1500;
/** How often the lock sampler looks (each look is one query on its own connection). */
const SAMPLE_EVERY_MS = 5;
const WRITER_APP = "bench-sched-writer";
/** The "nothing due" runs' clock, this far back: before the seed's due times (90 days old at most). */
const IDLE_CLOCK_DAYS = 60;

interface Latency {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

interface LockSamples {
  samples: number;
  waiting: number;
  longestMs: number;
}

/** The hourly tasks run by runScheduledTasks, and the pool's nightly recycle (issue #22). */
export type ScheduledTask = CronTask | "poolRecycle";

export interface ScheduledTaskResult {
  task: ScheduledTask;
  /** Run time of each run beside the writers, ms. */
  runsMs: number[];
  /** Run time of each run alone, ms. */
  aloneMs: number[];
  /** Run time of each run with nothing due, ms. */
  idleMs: number[];
  /** Rows (users, customers, orders, ...) each run processed, as the task reported. */
  rows: number[];
  /** What the last run returned. */
  result: unknown;
  baseline: Latency;
  during: Latency;
  /** Lock sampler over the task's runs: looks, looks that saw a writer waiting on a lock, the
   * longest wait seen (ms a writer's statement had been waiting when sampled). */
  locks: LockSamples;
  /** The same sampler over the baseline writes (writers waiting on each other). */
  baselineLocks: LockSamples;
  ok: boolean;
}

export interface ScheduledResult {
  users: number;
  customers: number;
  seedMs: number;
  writers: number;
  runs: number;
  cpus: number;
  tasks: ScheduledTaskResult[];
}

// ---------------------------------------------------------------------------------------------
// Seed. Ordinals decide who has what, so every run's reset re-creates the same due work:
//   users u1..u100000 (id md5('u'||i)); 1 in 20 a trial that has ended (email trial-*);
//   1 in 10 (i % 10 = 1) a running monthly subscription with an allowance to grant;
//   1 in 10 (i % 10 = 2) an allowance lot past its expiry; 1 in 50 (i % 50 = 5) a held charge
//   whose heartbeat stopped; 1 in 5 (i % 5 = 3) a pending order past its payment window.
//   customers c1..c1000000 spread evenly: 1 in 20 silent for 30 days, 1 in 50 a follow-up due;
//   the rest contacted 0 to 9 days ago (i % 10). Every organisation has the pool rule below.

const userId = (i: string) => `md5('u' || ${i})::uuid`;
/**
 * Every organisation's pool rule (docs/teams.md): customers without a follow-up for 12 days go
 * back to the pool (the 1 in 20 silent for 30 days, won ones exempt), a warning 4 days before
 * (those contacted 9 days ago, 1 in 10, cross into it today: the recycle's windows are whole UTC
 * days, wherever in the day the run falls).
 */
const POOL_RECYCLE_DAYS = 12;
const POOL_SETTINGS = JSON.stringify({
  pool: { recycle_after_days: POOL_RECYCLE_DAYS, warn_days_before: 4, exempt_statuses: ["won"] },
});
const now = "now()";

function seedSql(users: number, customers: number): string[] {
  return [
    `set session_replication_role = replica`,
    `insert into users (id, email, referral_code, created_at, updated_at)
     select ${userId("i")},
       case when i % 20 = 0 then 'trial-' else 'u-' end || i || '@bench.test', 'R' || i,
       ${now} - interval '90 days', ${now} - interval '90 days'
     from generate_series(1, ${users}) i`,
    // Every user: a lasting lot of 100 credits (5 of them held by a stale hold where i % 50 = 5).
    // Each account the owner of its personal organisation, whose id is the account's (as
    // migration 0024 made them; the seed runs without triggers, so it makes them itself). Each
    // organisation recycles customers left without a follow-up for POOL_RECYCLE_DAYS. The plan
    // is the organisation's.
    `insert into orgs (id, name, plan, plan_expires_at, settings, created_at, updated_at)
     select ${userId("i")}, 'Org ' || i,
       case when i % 20 = 0 or i % 10 = 1 then 'pro' else 'free' end,
       case when i % 20 = 0 then ${now} - interval '1 hour'
            when i % 10 = 1 then ${now} + interval '20 days' end,
       '${POOL_SETTINGS}'::jsonb, ${now} - interval '90 days', ${now} - interval '90 days'
     from generate_series(1, ${users}) i`,
    `insert into org_members (user_id, org_id, role, joined_at)
     select u.id, u.id, 'owner', u.created_at from users u`,
    `insert into credit_lots (id, org_id, user_id, kind, granted, remaining, expires_at, source_type, source_id)
     select md5('lot' || i)::uuid, ${userId("i")}, ${userId("i")}, 'signup', 100,
       case when i % 50 = 5 then 95 else 100 end, null, 'bench', 'base'
     from generate_series(1, ${users}) i`,
    // The wallet is the organisation's (org_credits; user_credits is a view of it per member).
    `insert into org_credits (org_id, balance)
     select ${userId("i")}, case when i % 50 = 5 then 95 else 100 end
     from generate_series(1, ${users}) i`,
    `insert into subscriptions (user_id, org_id, plan_code, billing_cycle, order_no, monthly_credits,
       starts_at, ends_at)
     select ${userId("i")}, ${userId("i")}, 'pro', 'monthly', 'BS' || i, 300, ${now} - interval '10 days',
       ${now} + interval '20 days'
     from generate_series(1, ${users}) i where i % 10 = 1`,
    `insert into customers (org_id, user_id, company, contact_name, email, status, last_contact_at,
       next_followup_at, created_at, updated_at)
     select ${userId(`((i - 1) % ${users} + 1)`)}, ${userId(`((i - 1) % ${users} + 1)`)},
       'Company ' || i, 'Contact ' || i,
       'c' || i || '@example.test',
       (array['new','contacted','negotiating','quoted','won','lost','dormant'])[i % 7 + 1],
       case when i % 20 = 0 then ${now} - interval '30 days'
            else ${now} - make_interval(days => i % 10) end,
       case when i % 50 = 3 then ${now} - interval '1 hour'
            when i % 50 = 4 then ${now} + interval '7 days' end,
       ${now} - interval '60 days', ${now} - interval '60 days'
     from generate_series(1, ${customers}) i`,
    // Settled orders, so the pending ones are a minority of the table as in life.
    `insert into payment_transactions (order_no, user_id, org_id, kind, credits, subject, pay_type,
       provider, amount, currency, status, expires_at, paid_at, created_at)
     select 'BP' || i, ${userId(`((i - 1) % ${users} + 1)`)}, ${userId(`((i - 1) % ${users} + 1)`)}, 'credits', 100, 'Credits', 'alipay',
       'alipay', 1000, 'CNY', 'paid', ${now} - interval '1 day', ${now} - interval '1 day',
       ${now} - interval '1 day'
     from generate_series(1, ${users}) i`,
    `set session_replication_role = origin`,
    `analyze`,
  ];
}

// ---------------------------------------------------------------------------------------------
// The tasks measured: how each run's due work is put back, the rows the writers pick from, what
// they write, and how many rows the task's result says it processed.

interface Write {
  sql: string;
  params: (target: Record<string, string>) => unknown[];
}

interface TaskSpec {
  task: ScheduledTask;
  /** How the task runs, when it is not one of runScheduledTasks' (which times its own). */
  run?: (deps: Deps) => Promise<unknown>;
  /** Statements that put the due work back (run before every run). */
  reset: string[];
  /**
   * Whether its due work stays due after a run (a rerun reports it again): its "nothing due" run
   * is then at a clock before the seed's due times, not a rerun.
   */
  staysDue?: boolean;
  /** Rows the writers write to: the ones the task works on. */
  targets: string;
  writes: Write[];
  rows: (result: unknown) => number;
}

const charge: Write = {
  sql: `select ok from credit_charge($1::uuid, 1, 'consumption', 'bench', 'bench write', null,
          null, now())`,
  params: (t) => [t.user_id],
};
const touchUser: Write = {
  sql: `update users set last_login_at = now() where id = $1`,
  params: (t) => [t.user_id],
};
const touchCustomer: Write = {
  sql: `update customers set notes = 'written ' || now(), updated_at = now() where id = $1`,
  params: (t) => [t.customer_id],
};

/** Wallets put back to what their lots hold, for the (personal) organisations `where` selects. */
const rebalance = (where: string) =>
  `update org_credits oc set balance = l.total from (
     select org_id, sum(remaining)::int as total from credit_lots group by org_id) l
   where oc.org_id = l.org_id and oc.org_id in (select ${userId("i")} from generate_series(1, $USERS) i where ${where})`;

const num = (value: unknown, key: string) =>
  Number((value as Record<string, unknown> | undefined)?.[key] ?? 0);

const TASKS: TaskSpec[] = [
  {
    task: "customerReminders",
    staysDue: true,
    reset: [`truncate notifications`],
    targets: `select c.id as customer_id, c.user_id from customers c
      where c.last_contact_at < now() - interval '20 days' or c.next_followup_at <= now()
      order by random() limit 5000`,
    writes: [touchCustomer, touchUser],
    rows: (r) => num(r, "silent") + num(r, "followups_due"),
  },
  {
    task: "trialDowngrade",
    reset: [
      `truncate notifications`,
      `update orgs o set plan = 'pro', plan_expires_at = now() - interval '1 hour'
       from users u where u.id = o.id and u.email like 'trial-%'`,
    ],
    targets: `select u.id as user_id, (select c.id from customers c where c.user_id = u.id limit 1)
        as customer_id
      from users u where u.email like 'trial-%' order by random() limit 5000`,
    writes: [touchUser, touchCustomer, charge],
    rows: (r) => num(r, "downgraded"),
  },
  {
    task: "expireCredits",
    reset: [
      `delete from credit_lots where source_type = 'bench' and source_id = 'expiring'`,
      `insert into credit_lots (org_id, user_id, kind, granted, remaining, expires_at, source_type, source_id)
       select ${userId("i")}, ${userId("i")}, 'plan_allowance', 50, 50, now() - interval '1 hour', 'bench', 'expiring'
       from generate_series(1, $USERS) i where i % 10 = 2`,
      rebalance("i % 10 = 2"),
    ],
    targets: `select user_id from credit_lots where source_id = 'expiring' order by random() limit 5000`,
    writes: [charge, touchUser],
    rows: (r) => num(r, "users"),
  },
  {
    task: "grantAllowances",
    reset: [
      `delete from credit_ledger where kind = 'plan_allowance' and source_type = 'subscription'`,
      `delete from credit_lots where source_type = 'subscription'`,
      // Due again at the next run, as a subscription new or never looked at is (ADR 0122).
      `update subscriptions set allowance_due_at = '-infinity' where allowance_due_at <> '-infinity'`,
      rebalance("i % 10 = 1"),
    ],
    targets: `select user_id from subscriptions order by random() limit 5000`,
    writes: [charge, touchUser],
    rows: (r) => num(r, "grants"),
  },
  {
    task: "refundStaleHolds",
    reset: [
      `delete from credit_holds`,
      `delete from credit_consumptions where operation = 'bench-held'`,
      `delete from credit_ledger where source_type = 'bench-held'
         or (kind = 'refund' and operation = 'bench-held')`,
      `update credit_lots set remaining = 95 where source_type = 'bench' and source_id = 'base'
         and user_id in (select ${userId("i")} from generate_series(1, $USERS) i where i % 50 = 5)`,
      `insert into credit_ledger (id, org_id, user_id, delta, balance_after, kind, source_type, operation, lots)
       select md5('hl' || i)::uuid, ${userId("i")}, ${userId("i")}, -5, 95, 'consumption', 'bench-held', 'bench-held',
         jsonb_build_array(jsonb_build_object('lot_id', md5('lot' || i)::uuid, 'amount', 5))
       from generate_series(1, $USERS) i where i % 50 = 5`,
      `insert into credit_consumptions (id, org_id, user_id, operation, cost, status, ledger_id)
       select md5('hc' || i)::uuid, ${userId("i")}, ${userId("i")}, 'bench-held', 5, 'charged', md5('hl' || i)::uuid
       from generate_series(1, $USERS) i where i % 50 = 5`,
      `insert into credit_holds (consumption_id, user_id, instance_id, heartbeat_at)
       select md5('hc' || i)::uuid, ${userId("i")}, 'dead-instance', now() - interval '10 minutes'
       from generate_series(1, $USERS) i where i % 50 = 5`,
      rebalance("i % 50 = 5"),
    ],
    targets: `select user_id from credit_holds order by random() limit 5000`,
    writes: [charge, touchUser],
    rows: (r) => num(r, "refunded"),
  },
  {
    task: "expireOrders",
    reset: [
      `delete from credit_purchases where order_no like 'BX%'`,
      `delete from payment_transactions where order_no like 'BX%'`,
      `insert into payment_transactions (order_no, user_id, org_id, kind, credits, subject, pay_type,
         provider, amount, currency, status, expires_at, created_at)
       select 'BX' || i, ${userId("i")}, ${userId("i")}, 'credits', 100, 'Credits', 'alipay', 'alipay', 1000, 'CNY',
         'pending', now() - interval '10 minutes', now() - interval '40 minutes'
       from generate_series(1, $USERS) i where i % 5 = 3`,
      `insert into credit_purchases (user_id, order_no, credits, amount, currency, status)
       select ${userId("i")}, 'BX' || i, 100, 1000, 'CNY', 'pending'
       from generate_series(1, $USERS) i where i % 5 = 3`,
    ],
    targets: `select order_no, user_id from payment_transactions where order_no like 'BX%'
      order by random() limit 5000`,
    writes: [
      {
        sql: `update payment_transactions set updated_at = now() where order_no = $1`,
        params: (t) => [t.order_no],
      },
      charge,
    ],
    rows: (r) => num(r, "expired"),
  },
  {
    task: "purgeExpired",
    reset: [
      `delete from idempotency_keys`,
      `insert into idempotency_keys (user_id, key, request_hash, status, expires_at)
       select ${userId(`((i - 1) % $USERS + 1)`)}, 'k' || i, 'h', 'completed',
         now() + case when i % 2 = 0 then interval '-1 hour' else interval '1 hour' end
       from generate_series(1, 200000) i`,
      `delete from payment_nonces`,
      `insert into payment_nonces (nonce, expires_at)
       select 'n' || i, now() + case when i % 2 = 0 then interval '-1 hour' else interval '1 hour' end
       from generate_series(1, 100000) i`,
      `delete from session_revocations`,
      `insert into session_revocations (session_id, user_id, revoked_at)
       select md5('s' || i)::uuid, ${userId(`((i - 1) % $USERS + 1)`)},
         now() - case when i % 2 = 0 then interval '3 days' else interval '1 minute' end
       from generate_series(1, 50000) i`,
    ],
    targets: `select id as user_id from users order by random() limit 5000`,
    writes: [
      {
        sql: `insert into idempotency_keys (user_id, key, request_hash, status, expires_at)
              values ($1, gen_random_uuid()::text, 'h', 'in_flight', now() + interval '1 minute')`,
        params: (t) => [t.user_id],
      },
      touchUser,
    ],
    rows: (r) => num(r, "nonces") + num(r, "sessions"),
  },
  // The every-minute sweeps and the refund check: nothing of theirs is seeded (agent runs,
  // discovery jobs and refunds are other tables), so each run is the cost of finding nothing
  // beside a million customers, every minute.
  ...(["sweepAgents", "sweepDiscoveryJobs", "reconcileRefunds"] as const).map(
    (task): TaskSpec => ({
      task,
      reset: [],
      targets: `select id as user_id from users order by random() limit 5000`,
      writes: [charge, touchUser],
      rows: (r) => num(r, "found") + num(r, "checked"),
    }),
  ),
  {
    // Issue #22: the overnight pool recycle, with its warnings, over every organisation.
    task: "poolRecycle",
    run: (deps) => recyclePoolCustomers(deps, deps.clock.now()),
    staysDue: true,
    reset: [
      `truncate notifications`,
      `delete from customer_ownership_events where action = 'recycle'`,
      // Back to their holders (the seed's organisation id is its owner's id).
      `update customers set user_id = org_id, held_since = null where user_id is null`,
    ],
    targets: `select c.id as customer_id, c.user_id from customers c
      where c.last_contact_at < now() - interval '${POOL_RECYCLE_DAYS} days' and c.status <> 'won'
      order by random() limit 5000`,
    writes: [touchCustomer, touchUser],
    rows: (r) => num(r, "recycled") + num(r, "warned"),
  },
];

// ---------------------------------------------------------------------------------------------

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function latency(samples: number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** WRITERS connections writing to `targets` until stopped; every write's latency in ms. */
async function startWriters(url: string, targets: Record<string, string>[], writes: Write[]) {
  const clients = await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      const client = new pg.Client({ connectionString: url, application_name: WRITER_APP });
      await client.connect();
      return client;
    }),
  );
  const samples: number[] = [];
  let running = true;
  let failure: unknown;
  const loops = clients.map(async (client, w) => {
    for (let n = w; running; n++) {
      const target = targets[Math.floor(Math.random() * targets.length)]!;
      const write = writes[n % writes.length]!;
      const started = performance.now();
      try {
        await client.query({ text: write.sql, values: write.params(target) });
      } catch (error) {
        failure ??= error;
        return;
      }
      samples.push(performance.now() - started);
      await sleep(WRITER_PAUSE_MS);
    }
  });
  return {
    samples,
    async stop() {
      running = false;
      await Promise.all(loops);
      await Promise.all(clients.map((c) => c.end()));
      if (failure) throw failure;
    },
  };
}

/** Looks every SAMPLE_EVERY_MS for writers waiting on a lock, and for how long they have. */
function startLockSampler(client: pg.Client) {
  const seen = { samples: 0, waiting: 0, longestMs: 0 };
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await client.query<{ ms: number }>(
        `select extract(epoch from clock_timestamp() - query_start) * 1000 as ms
         from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock'`,
        [WRITER_APP],
      );
      seen.samples++;
      if (rows.length > 0) seen.waiting++;
      for (const row of rows) seen.longestMs = Math.max(seen.longestMs, Number(row.ms));
      await sleep(SAMPLE_EVERY_MS);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return seen;
    },
  };
}

function addLocks(into: LockSamples, seen: LockSamples): void {
  into.samples += seen.samples;
  into.waiting += seen.waiting;
  into.longestMs = Math.max(into.longestMs, seen.longestMs);
}

async function buildTaskDeps(url: string): Promise<Deps> {
  const database = openPostgresDatabase(url, 4);
  const secret = (name: string) => `bench-${name}-0123456789abcdef0123456789abcdef`;
  return buildDeps(parseConfig({ APP_ENV: "test", LOG_LEVEL: "silent" }), {
    database,
    limiter: createMemoryRateLimiter(),
    passwords: createNodePasswordHasher(),
    resolveHost: nodeResolver,
    secrets: { jwtSecret: secret("jwt"), csrfSecret: secret("csrf"), encryptionKey: secret("enc") },
    logger: createLogger("silent"),
  });
}

/** The task once: its run time, result and whether it finished, as runScheduledTasks reports. */
async function runTask(
  spec: TaskSpec,
  deps: Deps,
): Promise<{ ms: number; ok: boolean; result?: unknown }> {
  if (!spec.run) {
    const [outcome] = await runScheduledTasks(deps, [spec.task as CronTask]);
    return outcome!;
  }
  const started = performance.now();
  try {
    const result = await spec.run(deps);
    return { ms: Math.round(performance.now() - started), ok: true, result };
  } catch (error) {
    deps.logger.error("scheduled task failed", { task: spec.task, error });
    return { ms: Math.round(performance.now() - started), ok: false };
  }
}

/** The deps with the clock IDLE_CLOCK_DAYS back: every seeded due time is still ahead. */
function idleDeps(deps: Deps): Deps {
  const back = IDLE_CLOCK_DAYS * 86_400_000;
  return { ...deps, clock: { now: () => new Date(Date.now() - back) } };
}

/**
 * Puts the task's due work back, without triggers as the seed writes (deleting a run's ledger
 * rows otherwise checks each against credit_consumptions' foreign keys, which have no index on
 * that side: minutes once the writers' charges have filled it).
 */
async function resetTask(spec: TaskSpec, ctx: { admin: pg.Client; users: number }) {
  await ctx.admin.query("set session_replication_role = replica");
  try {
    for (const statement of spec.reset) {
      await ctx.admin.query(statement.replaceAll("$USERS", String(ctx.users)));
    }
  } finally {
    await ctx.admin.query("set session_replication_role = origin");
  }
  await ctx.admin.query("analyze");
}

async function measureTask(
  spec: TaskSpec,
  ctx: { url: string; admin: pg.Client; deps: Deps; runs: number; users: number },
  log: (line: string) => void,
): Promise<ScheduledTaskResult> {
  const out: ScheduledTaskResult = {
    task: spec.task,
    runsMs: [],
    aloneMs: [],
    idleMs: [],
    rows: [],
    result: undefined,
    baseline: latency([]),
    during: latency([]),
    locks: { samples: 0, waiting: 0, longestMs: 0 },
    baselineLocks: { samples: 0, waiting: 0, longestMs: 0 },
    ok: true,
  };
  const baselines: Latency[] = [];
  const durings: Latency[] = [];
  for (let run = 0; run < ctx.runs; run++) {
    await resetTask(spec, ctx);
    const alone = await runTask(spec, ctx.deps);
    out.aloneMs.push(alone.ms);
    out.ok &&= alone.ok;

    await resetTask(spec, ctx);
    const { rows: targets } = await ctx.admin.query<Record<string, string>>(spec.targets);
    const idleSampler = startLockSampler(ctx.admin);
    const idle = await startWriters(ctx.url, targets, spec.writes);
    await sleep(BASELINE_MS);
    await idle.stop();
    addLocks(out.baselineLocks, await idleSampler.stop());
    baselines.push(latency(idle.samples));

    const sampler = startLockSampler(ctx.admin);
    const busy = await startWriters(ctx.url, targets, spec.writes);
    await sleep(100);
    const outcome = await runTask(spec, ctx.deps);
    await busy.stop();
    const locks = await sampler.stop();
    durings.push(latency(busy.samples));

    const nothing = await runTask(spec, spec.staysDue ? idleDeps(ctx.deps) : ctx.deps);
    out.idleMs.push(nothing.ms);
    out.ok &&= nothing.ok;

    out.runsMs.push(outcome.ms);
    out.rows.push(spec.rows(outcome.result));
    out.result = outcome.result;
    out.ok &&= outcome.ok;
    addLocks(out.locks, locks);
    log(
      `scheduled ${spec.task} ${run + 1}/${ctx.runs}: alone ${alone.ms} ms (${spec.rows(alone.result)} rows), ` +
        `beside ${WRITERS} writers ${outcome.ms} ms (${out.rows.at(-1)} rows), nothing due ${nothing.ms} ms; ` +
        `writes p99 ${latency(busy.samples).p99.toFixed(1)} ms (baseline ${latency(idle.samples).p99.toFixed(1)}), ` +
        `lock waits seen ${locks.waiting}/${locks.samples} (longest ${locks.longestMs.toFixed(1)} ms)` +
        (alone.ok && outcome.ok && nothing.ok ? "" : " FAILED"),
    );
  }
  const mid = (pick: (l: Latency) => number, of: Latency[]) => median(of.map(pick));
  for (const [target, of] of [
    ["baseline", baselines],
    ["during", durings],
  ] as const) {
    out[target] = {
      count: mid((l) => l.count, of),
      p50: mid((l) => l.p50, of),
      p99: mid((l) => l.p99, of),
      max: Math.max(...of.map((l) => l.max)),
    };
  }
  return out;
}

/**
 * The database the tasks run on: a new one, seeded and dropped at the end; or, with `keep`, the
 * database of that name, seeded once and kept (quick reruns while working on a task: seeding a
 * million customers takes minutes). Migrations run either way, so new indexes apply.
 */
async function openBenchDatabase(
  admin0: pg.Client,
  adminUrl: string,
  scale: { users: number; customers: number; keep?: string },
  log: (line: string) => void,
) {
  const name = scale.keep ?? `bench_sched_${process.pid}_${Date.now().toString(36)}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const dbUrl = url.toString();
  const { rows } = await admin0.query("select 1 from pg_database where datname = $1", [name]);
  if (rows.length === 0) await admin0.query(`create database ${name}`);
  await migratePostgres(dbUrl);
  const admin = new pg.Client({ connectionString: dbUrl });
  await admin.connect();
  await admin.query("create table if not exists bench_seed (users int, customers int)");
  const { rows: seeded } = await admin.query<{ users: number; customers: number }>(
    "select users, customers from bench_seed",
  );
  let seedMs = 0;
  if (seeded[0]?.users !== scale.users || seeded[0]?.customers !== scale.customers) {
    if (seeded.length > 0) throw new Error(`${name} holds another scale: drop it first`);
    const seedStart = performance.now();
    for (const statement of seedSql(scale.users, scale.customers)) await admin.query(statement);
    await admin.query("insert into bench_seed values ($1, $2)", [scale.users, scale.customers]);
    seedMs = performance.now() - seedStart;
  }
  log(
    `scheduled: ${seedMs ? "seeded" : "reused"} ${scale.users} users, ${scale.customers} customers` +
      ` in ${(seedMs / 1000).toFixed(1)} s (${name})`,
  );
  return {
    name,
    dbUrl,
    admin,
    seedMs,
    async close() {
      await admin.end().catch(() => {});
      if (!scale.keep) {
        await admin0.query(`drop database if exists ${name} with (force)`).catch(() => {});
      }
    },
  };
}

export async function measureScheduled(ctx: {
  adminUrl: string;
  log: (line: string) => void;
  /** Only these tasks (default: all measured ones). */
  only?: ScheduledTask[];
  /** Another scale for a quick check (bench/scheduled.ts --users=N --customers=N --runs=N). */
  scale?: Partial<typeof SETTINGS.scheduledScale>;
  /** A database to seed once and keep (bench/scheduled.ts --keep=NAME). */
  keep?: string;
}): Promise<ScheduledResult> {
  const { users, customers, runs } = { ...SETTINGS.scheduledScale, ...ctx.scale };
  const admin0 = new pg.Client({ connectionString: ctx.adminUrl });
  await admin0.connect();
  let deps: Deps | undefined;
  let db: Awaited<ReturnType<typeof openBenchDatabase>> | undefined;
  try {
    db = await openBenchDatabase(
      admin0,
      ctx.adminUrl,
      { users, customers, keep: ctx.keep },
      ctx.log,
    );
    deps = await buildTaskDeps(db.dbUrl);
    const tasks: ScheduledTaskResult[] = [];
    for (const spec of TASKS) {
      if (ctx.only && !ctx.only.includes(spec.task)) continue;
      tasks.push(
        await measureTask(spec, { url: db.dbUrl, admin: db.admin, deps, runs, users }, ctx.log),
      );
    }
    return {
      users,
      customers,
      seedMs: db.seedMs,
      writers: WRITERS,
      runs,
      cpus: cpus().length,
      tasks,
    };
  } finally {
    await deps?.database.close().catch(() => {});
    await db?.close();
    await admin0.end();
  }
}
