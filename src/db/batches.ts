import { sql } from "drizzle-orm";

/**
 * Rows a task statement locks at most: a statement holds its locks until it commits, so a
 * batch bounds how long (and how many) users' own writes can wait on a task.
 */
export const TASK_BATCH_SIZE = 500;

/**
 * How much work a task statement's rows should be, so a user's write waiting on its locks waits
 * less than 10 ms (issue #13): the rows' part of a batch on a quiet server. Rows cost a statement
 * from ~0.02 ms (an order, a notification) to ~0.5 ms (a refund) and more when the cores are
 * busy (bench/scheduled.ts), so no fixed row count keeps every task under it: each batch's size
 * follows from how long the previous one took.
 */
const TASK_BATCH_MS = 4;

/**
 * A statement's fixed part (round trip, planning, commit) on a quiet server, ms: how busy the
 * cores are is read off how far the fixed part measured exceeds it.
 */
const QUIET_FIXED_MS = 2;

/**
 * How far busy cores may stretch the rows' part of a batch, in wall time: at most this many
 * times TASK_BATCH_MS (see inTimedBatches).
 */
const MAX_STRETCH = 4;

/**
 * The first batch's size, before any has been timed, and the least a batch takes.
 */
const MIN_BATCH_SIZE = 10;

/** The least a row is taken to cost, ms: so a batch timed at its fixed cost alone grows 2x a step. */
const MIN_ROW_MS = 0.001;

/** How a run's batches are sized: the rows' part they aim at, and how far busy cores stretch it. */
export interface BatchAim {
  /** The rows' part of a batch on a quiet server, ms. */
  rowsMs: number;
  /** At most this many times rowsMs in wall time on busy cores (1: no stretch). */
  maxStretch: number;
}

const TASK_AIM: BatchAim = { rowsMs: TASK_BATCH_MS, maxStretch: MAX_STRETCH };

/**
 * Runs `batch(limit)` until it takes fewer rows than asked (none is left, or the rest are locked
 * by users: next run's), and returns the rows taken in all. A statement's time is a fixed part
 * (the round trip, planning, the commit: ~1-2 ms on a quiet server) and its rows'; only the
 * rows' part holds row locks for long. The fixed part is taken as the fastest batch seen (the
 * first is MIN_BATCH_SIZE rows, nearly all fixed cost), a row's cost as the last batch's time
 * beyond it per row, and each limit aims the rows' part at TASK_BATCH_MS of work (ADR 0122):
 *
 * On busy cores every statement's wall time stretches, the fixed part's and the rows' alike,
 * and so does every user's write: the rows' part in wall time is no longer the task's work
 * (timing it at TASK_BATCH_MS pinned batches at MIN_BATCH_SIZE beside 40 writers on 2 cores:
 * thousands of statements each paying the stretched fixed part, the task 10 times slower and
 * the users' writes sharing the cores with it that much longer). The stretch is read off the
 * fixed part (its wall time over QUIET_FIXED_MS), and the rows' part may take that many times
 * TASK_BATCH_MS, up to MAX_STRETCH: the same work a batch does on a quiet server. A slow round
 * trip (a remote database) reads as a stretch too, which MAX_STRETCH bounds.
 *
 * Growing at most twofold a step, between MIN_BATCH_SIZE and TASK_BATCH_SIZE rows. `clock` is
 * for tests.
 */
export function inTimedBatches(
  batch: (limit: number) => Promise<number>,
  clock: () => number = () => performance.now(),
): Promise<number> {
  return timedBatches(TASK_AIM, clock)(batch);
}

/**
 * inTimedBatches with another aim, as a runner whose sizes carry over from one call to the next
 * (a walk's pages: a page does not start again from the least batch).
 */
export function timedBatches(aim: BatchAim, clock: () => number = () => performance.now()) {
  let limit = MIN_BATCH_SIZE;
  let fixedMs = Number.POSITIVE_INFINITY;
  return async function run(batch: (limit: number) => Promise<number>): Promise<number> {
    let total = 0;
    for (;;) {
      const started = clock();
      const taken = await batch(limit);
      total += taken;
      if (taken < limit) return total;
      const ms = clock() - started;
      fixedMs = Math.min(fixedMs, ms);
      limit = nextBatchSize(aim, limit, ms, fixedMs);
    }
  };
}

/** The next batch's limit after one of `limit` rows took `ms`, the fastest seen `fixedMs`. */
function nextBatchSize(aim: BatchAim, limit: number, ms: number, fixedMs: number): number {
  const stretch = Math.min(aim.maxStretch, Math.max(1, fixedMs / QUIET_FIXED_MS));
  const rowMs = Math.max((ms - fixedMs) / limit, MIN_ROW_MS);
  const fit = Math.floor((aim.rowsMs * stretch) / rowMs);
  return Math.max(MIN_BATCH_SIZE, Math.min(TASK_BATCH_SIZE, limit * 2, fit));
}

/**
 * Where a task's keyset walk over (a timestamptz, id) resumes: the last row's, the time as
 * PostgreSQL prints it (text keeps its microseconds; a Date would not).
 */
export interface KeysetCursor {
  at: string;
  id: string;
}

/** Before every row: where a walk starts. */
export const KEYSET_START: KeysetCursor = {
  at: "-infinity",
  id: "00000000-0000-0000-0000-000000000000",
};

/**
 * A select-list item for a task's batch statement: its transaction commits without waiting for
 * its WAL flush (synchronous_commit off for that transaction only, set inside the statement), so
 * its row locks go at once instead of after a disk flush that 40 users' commits queue for too
 * (ADR 0103, 0122). A crash can lose only the last batches, whole; each task finds their rows
 * due again and redoes them (its once keys and markers are lost with them). Whatever a user did
 * with a batch's result and committed is durable with it: their commit flushes the WAL up to
 * their own record, past the batch's.
 */
export const ASYNC_COMMIT = sql`set_config('synchronous_commit', 'off', true) as commit_mode`;
