/**
 * Rows a task statement locks at most: a statement holds its locks until it commits, so a
 * batch bounds how long (and how many) users' own writes can wait on a task.
 */
export const TASK_BATCH_SIZE = 500;

/**
 * How long a task statement should run, so a user's write waiting on its locks waits less than
 * 10 ms (issue #13). Rows cost a statement from ~0.02 ms (an order, a notification) to ~0.5 ms
 * (a refund) and more when the cores are busy (bench/scheduled.ts), so no fixed row count
 * keeps every task under it: each batch's size follows from how long the previous one took.
 */
const TASK_BATCH_MS = 4;

/**
 * The first batch's size, before any has been timed, and the least a batch takes.
 */
const MIN_BATCH_SIZE = 10;

/** The least a row is taken to cost, ms: so a batch timed at its fixed cost alone grows 2x a step. */
const MIN_ROW_MS = 0.001;

/**
 * Runs `batch(limit)` until it takes fewer rows than asked (none is left, or the rest are locked
 * by users: next run's), and returns the rows taken in all. A statement's time is a fixed part
 * (the round trip, planning, the commit: ~1-4 ms, far more on busy cores) and its rows'; only
 * the rows' part holds row locks for long, so each limit aims the rows' part at TASK_BATCH_MS:
 * the fixed part is taken as the fastest batch seen (the first is MIN_BATCH_SIZE rows, nearly
 * all fixed cost), a row's cost as the last batch's time beyond it per row. Timing the whole
 * statement instead pinned batches at MIN_BATCH_SIZE whenever the fixed part alone passed 4 ms:
 * thousands of statements for a task's due rows. Growing at most twofold a step, between
 * MIN_BATCH_SIZE and TASK_BATCH_SIZE rows.
 */
export async function inTimedBatches(batch: (limit: number) => Promise<number>): Promise<number> {
  let limit = MIN_BATCH_SIZE;
  let total = 0;
  let fixedMs = Number.POSITIVE_INFINITY;
  for (;;) {
    const started = performance.now();
    const taken = await batch(limit);
    total += taken;
    if (taken < limit) return total;
    const ms = performance.now() - started;
    fixedMs = Math.min(fixedMs, ms);
    const rowMs = Math.max((ms - fixedMs) / limit, MIN_ROW_MS);
    const fit = Math.floor(TASK_BATCH_MS / rowMs);
    limit = Math.max(MIN_BATCH_SIZE, Math.min(TASK_BATCH_SIZE, limit * 2, fit));
  }
}
