import { timedBatches } from "../../../db/batches";

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

/**
 * A recycle run's batches (db/batches.ts timedBatches): the rows' part aimed at
 * RECYCLE_BATCH_MS, not stretched on busy cores (the figures above were measured so), the sizes
 * kept across the walk's pages.
 */
export const recycleBatches = () => timedBatches({ rowsMs: RECYCLE_BATCH_MS, maxStretch: 1 });
