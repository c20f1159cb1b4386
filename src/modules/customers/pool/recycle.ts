import type { Deps } from "../../../ports";
import { type PushCounts, pushPendingNotifications } from "../../notifications/push";
import { parseOrgSettings } from "../../orgs/settings";
import {
  type DueCustomer,
  oldestHeldClock,
  orgsWithRecycleRule,
  type RecycleRule,
  type RecycleTarget,
  recycleCustomers,
  type WarnedCustomer,
  type WarningRow,
  writeWarnings,
} from "../queries/pool";
import { recycleBatches } from "./batches";
import { duePages } from "./due-pages";

const DAY_MS = 86_400_000;

/**
 * Organisations whose rules one walk carries in its statements: the rules travel as a
 * parameter, so a walk over many organisations is a series of walks over this many.
 */
const ORGS_PER_WALK = 1000;

/**
 * Due customers one read of the walk returns. The reads lock nothing, so their length delays
 * no user; a page bounds the task's memory.
 */
const DUE_PAGE = 2000;

/**
 * Warnings one statement writes: new notification rows, locking nothing a user writes, so the
 * chunk is sized for the round trips (as the reminders' digests, ADR 0121).
 */
const WARNING_CHUNK = 2000;

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

/** A warned customer into its holder's warning of the day. */
function addWarning(warnings: Map<string, HolderWarning>, row: DueCustomer) {
  let w = warnings.get(row.user_id);
  if (!w) {
    w = { count: 0, customers: [] };
    warnings.set(row.user_id, w);
  }
  w.count += 1;
  if (w.customers.length < WARNING_NAMES) {
    w.customers.push({
      user_id: row.user_id,
      customer_id: row.id,
      customer_name: row.customer_name,
      recycle_on: row.recycle_on!,
    });
  }
}

/**
 * The rules to walk, and whether anything can be due. Every window ends before the cutoff less
 * its organisation's warning (else recycle) days: when the oldest held clock is not before that
 * for the shortest rule, nothing is due. The first probe needs no rules (every window ends
 * before the cutoff), so a run far from any due day reads no organisation either.
 */
async function rulesToWalk(
  deps: Deps,
  cutoffMs: number,
): Promise<{ rules: RecycleRule[]; due: boolean }> {
  const oldest = await oldestHeldClock(deps.db);
  if (oldest === null || oldest >= cutoffMs) return { rules: [], due: false };
  const rules = rulesOf(await orgsWithRecycleRule(deps.db));
  const soonest = rules.reduce((least, r) => Math.min(least, r.warn_offset ?? r.days), Infinity);
  return { rules, due: oldest < cutoffMs - soonest * DAY_MS };
}

/** A run with nothing due: the pushes still go (a failed one of an earlier run is retried). */
async function nothingDue(deps: Deps, orgs: number) {
  const done = { orgs, warned: 0, warnings: 0, recycled: 0 };
  const pushed = await pushPendingNotifications(deps);
  return pushed ? { ...done, pushed } : done;
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
 * First one probe of the oldest held clock (customers_held_clock_idx): when it is not before the
 * cutoff less the shortest rule's warning (else recycle) days, nothing can be due and the run
 * reads neither the organisations nor their customers. Otherwise the walk reads a page of due
 * customers (warnings and recycles alike) without locks, then recycles that page's by primary
 * key in timed batches (./batches.ts, sized for the run as a whole) while the next page is read
 * (./due-pages.ts), each batch locking its rows with
 * SKIP LOCKED and re-checking them (a customer a user is writing, or followed up since the read,
 * waits for the next run; the user never waits for the task beyond one short batch). Nothing is
 * stored between runs: a run stopped half-way is finished by the next (ADR 0103).
 */
export async function recyclePoolCustomers(
  deps: Deps,
  now: Date = deps.clock.now(),
  /** Smaller walks and pages than the defaults (tests: many of them over few customers). */
  sizes: { orgsPerWalk?: number; page?: number } = {},
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
  const { rules, due } = await rulesToWalk(deps, cutoffMs);
  if (!due) return nothingDue(deps, rules.length);
  const warnings = new Map<string, HolderWarning>();
  const byOrg = new Map(rules.map((r) => [r.org_id, r]));
  let warned = 0;
  let recycled = 0;
  const perWalk = sizes.orgsPerWalk ?? ORGS_PER_WALK;
  const pageSize = sizes.page ?? DUE_PAGE;
  const inBatches = recycleBatches();
  for await (const page of duePages(deps.db, { rules, cutoff, perWalk, pageSize })) {
    const targets: RecycleTarget[] = [];
    for (const row of page) {
      if (row.kind === "recycle") {
        const rule = byOrg.get(row.org_id)!;
        targets.push({ id: row.id, org_id: row.org_id, days: rule.days, exempt: rule.exempt });
        continue;
      }
      addWarning(warnings, row);
      warned += 1;
    }
    // The page's recycles in timed batches by primary key; each call takes `limit` targets
    // (fewer at the end) whatever it could lock, so the loop runs to the page's end.
    let next = 0;
    await inBatches(async (limit) => {
      const slice = targets.slice(next, next + limit);
      next += slice.length;
      recycled += await recycleCustomers(deps.db, {
        targets: slice,
        cutoff,
        now: now.toISOString(),
        day,
      });
      return slice.length;
    });
  }
  const rows = [...warnings].map(([userId, w]) => warningOf(userId, w, day));
  let written = 0;
  for (let i = 0; i < rows.length; i += WARNING_CHUNK) {
    written += await writeWarnings(deps.db, {
      rows: rows.slice(i, i + WARNING_CHUNK),
      now: now.toISOString(),
    });
  }
  const done = { orgs: rules.length, warned, warnings: written, recycled };
  // After the writes have committed, as the reminders do: a failed push never loses one.
  const pushed = await pushPendingNotifications(deps);
  return pushed ? { ...done, pushed } : done;
}
