/**
 * The recycle's batch sizes (ADR 0103, 0121): db/batches.ts's timing, with the recycle's own
 * aim. A recycled row costs ~0.3-1 ms (a new tuple in every index of customers, a trigram GIN
 * among them, an event and a notification), so the tasks' 4 ms rows' part kept the recycle at
 * 5-15 rows a statement: tens of thousands of customers took thousands of statements, each
 * paying its round trip, planning and commit. The recycle locks only rows it re-checked as due
 * and skips the ones users hold (SKIP LOCKED), so a user meets its locks only by writing a
 * customer that is being recycled at that moment; for that rare wait, RECYCLE_BATCH_MS is the
 * bound.
 */
export const RECYCLE_BATCH_MS = 15;

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
