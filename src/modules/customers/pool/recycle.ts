import { inTimedBatches, TASK_BATCH_SIZE } from "../../../db/batches";
import type { Deps } from "../../../ports";
import { type PushCounts, pushPendingNotifications } from "../../notifications/push";
import { parseOrgSettings } from "../../orgs/settings";
import {
  orgsWithRecycleRule,
  type RecycleCursor,
  type RecycleRule,
  recycleBatch,
  type WarnedCustomer,
  type WarningRow,
  warningBatch,
  writeWarnings,
} from "../queries/pool";

const DAY_MS = 86_400_000;

/**
 * Organisations whose rules one walk carries in its statements: the rules travel as a
 * parameter, so a walk over many organisations is a series of walks over this many.
 */
const ORGS_PER_WALK = 200;

/** How many customers a warning names (the count covers all of them). */
const WARNING_NAMES = 5;

/** The rules of the organisations with pool.recycle_after_days, in organisation id order. */
function rulesOf(stored: { id: string; settings: unknown }[]): RecycleRule[] {
  const rules: RecycleRule[] = [];
  for (const { id, settings } of stored) {
    const { pool } = parseOrgSettings(settings);
    if (pool.recycle_after_days === null) continue;
    const days = pool.recycle_after_days;
    rules.push({
      org_id: id,
      days,
      warn_offset:
        pool.warn_days_before === null ? null : Math.max(days - pool.warn_days_before, 0),
      exempt: pool.exempt_statuses,
    });
  }
  return rules;
}

/** One holder's warnings of the day: how many, the first few, the day they go. */
interface HolderWarning {
  count: number;
  customers: WarnedCustomer[];
}

function warningOf(userId: string, w: HolderWarning, day: string): WarningRow {
  const first = w.customers[0]!;
  const noun = w.count === 1 ? "customer" : "customers";
  const names = w.customers.map((c) => c.customer_name).join("; ");
  return {
    user_id: userId,
    title: `${w.count} ${noun} return to the pool on ${first.recycle_on}`,
    body:
      `No follow-up yet: ${w.count} ${noun} you hold will go back to the pool on ` +
      `${first.recycle_on} unless you log a follow-up first (pool.recycle_after_days). ` +
      `${names}${w.count > w.customers.length ? "; ..." : ""}.`,
    data: {
      count: w.count,
      day,
      recycle_on: first.recycle_on,
      customers: w.customers.map(({ user_id: _, ...c }) => c),
    },
    dedupe_key: `pool_recycle_warning:${day}`,
  };
}

/**
 * The overnight pool recycle (task `poolRecycle`, docs/teams.md, ADR 0099). For each
 * organisation with pool.recycle_after_days = N: a held customer (status not in
 * pool.exempt_statuses) whose clock (its last follow-up, else its creation, or when its holder
 * got it if later) started more than N days before the run's UTC midnight goes back to the pool
 * with a `recycle` event, and its holder gets one `pool_recycled` notification per UTC day.
 * pool.warn_days_before = W: a customer whose recycle is W days away gets into its holder's
 * `pool_recycle_warning` of that day (one per holder and day, naming the first few), once per
 * clock start: the windows are whole UTC days, so any number of runs a day warn and recycle
 * exactly the same customers. A follow-up restarts the clock.
 *
 * The new notifications are pushed (WeChat) at the end, as the reminder digest's are.
 *
 * Both walks go a batch at a time (db/batches.ts): the warnings read only; each recycle batch
 * locks its rows with SKIP LOCKED (a customer a user is writing waits for the next run, the
 * user never waits for the task beyond one short batch).
 */
export async function recyclePoolCustomers(
  deps: Deps,
  now: Date = deps.clock.now(),
): Promise<{
  orgs: number;
  warned: number;
  warnings: number;
  recycled: number;
  pushed?: PushCounts;
}> {
  const cutoffMs = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const cutoff = new Date(cutoffMs).toISOString();
  const day = cutoff.slice(0, 10);
  const rules = rulesOf(await orgsWithRecycleRule(deps.db));
  const warnings = new Map<string, HolderWarning>();
  let warned = 0;
  let recycled = 0;
  for (let i = 0; i < rules.length; i += ORGS_PER_WALK) {
    const chunk = rules.slice(i, i + ORGS_PER_WALK);
    let after: RecycleCursor | null = null;
    await inTimedBatches(async (limit) => {
      const batch = await warningBatch(deps.db, { rules: chunk, cutoff, after, limit });
      for (const row of batch.rows) {
        let w = warnings.get(row.user_id);
        if (!w) {
          w = { count: 0, customers: [] };
          warnings.set(row.user_id, w);
        }
        w.count += 1;
        if (w.customers.length < WARNING_NAMES) w.customers.push(row);
      }
      warned += batch.taken;
      after = batch.next;
      return batch.next ? batch.taken : 0;
    });
    after = null;
    await inTimedBatches(async (limit) => {
      const batch = await recycleBatch(deps.db, {
        rules: chunk,
        cutoff,
        now: now.toISOString(),
        day,
        after,
        limit,
      });
      recycled += batch.taken;
      after = batch.next;
      // A short batch: nothing due is left unlocked in this walk; a locked one is next run's.
      return batch.next ? batch.taken : 0;
    });
  }
  const rows = [...warnings].map(([userId, w]) => warningOf(userId, w, day));
  let written = 0;
  for (let i = 0; i < rows.length; i += TASK_BATCH_SIZE) {
    written += await writeWarnings(deps.db, {
      rows: rows.slice(i, i + TASK_BATCH_SIZE),
      now: now.toISOString(),
    });
  }
  const done = { orgs: rules.length, warned, warnings: written, recycled };
  // After the writes have committed, as the reminders do: a failed push never loses one.
  const pushed = await pushPendingNotifications(deps);
  return pushed ? { ...done, pushed } : done;
}
