/**
 * The recycle's batch sizes (ADR 0103, 0121): db/batches.ts's timing, with the recycle's own
 * aim. A recycled row costs ~0.15-0.4 ms (a new tuple in every index of customers, a trigram
 * GIN among them, an event and a notification), and on busy cores a statement's fixed part
 * grows to ~15 ms, so the tasks' 4 ms rows' part, at 10-60 rows a statement, spent most of a
 * busy run on fixed parts. At 1,000,000 customers (42,857 recycled; the shared 2-core machine,
 * so rough): at load 5-16, 4 ms: 2,200 statements, 29 s; 15 ms: 560, 13.6 s; 30 ms: 240, 9.2 s;
 * at load 2-3, 4 ms: 1,150, 9.4 s; 30 ms: 236, 8.7 s; the same rows recycled with their events
 * and notifications by one statement: 7.3 s. The recycle locks only rows it re-checked as due
 * and skips the ones users hold (SKIP LOCKED), so a user meets its locks only by writing a
 * customer that is being recycled at that moment, and then waits for one batch: about
 * RECYCLE_BATCH_MS plus the statement's fixed part.
 */
const RECYCLE_BATCH_MS = 30;

/** The first batch, before any has been timed, and the least a batch takes. */
const MIN_BATCH = 10;

/** The most a batch takes (one statement's parameter, its locks). */
const MAX_BATCH = 500;

/** The least a row is taken to cost, ms: so a batch timed at its fixed cost alone grows 2x a step. */
const MIN_ROW_MS = 0.001;

/**
 * A run's batches: `run(batch)` calls `batch(limit)` until it takes fewer rows than asked, and
 * returns the rows taken in all. As db/batches.ts inTimedBatches: the fastest batch seen is taken
 * as the statement's fixed part, a row's cost as the last batch's time beyond it per row, and
 * each limit aims the rows' part (what holds the row locks) at `rowsMs`, at most doubling a
 * step. The sizes carry over from one `run` to the next (the walk's pages): a page does not
 * start again from the least batch.
 */
export function recycleBatches(rowsMs: number = RECYCLE_BATCH_MS) {
  let limit = MIN_BATCH;
  let fixedMs = Number.POSITIVE_INFINITY;
  return async function run(batch: (limit: number) => Promise<number>): Promise<number> {
    let total = 0;
    for (;;) {
      const started = performance.now();
      const taken = await batch(limit);
      total += taken;
      if (taken < limit) return total;
      const ms = performance.now() - started;
      fixedMs = Math.min(fixedMs, ms);
      const rowMs = Math.max((ms - fixedMs) / limit, MIN_ROW_MS);
      const fit = Math.floor(rowsMs / rowMs);
      limit = Math.max(MIN_BATCH, Math.min(MAX_BATCH, limit * 2, fit));
    }
  };
}
