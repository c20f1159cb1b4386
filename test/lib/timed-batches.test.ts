import { describe, expect, it } from "vitest";
import { inTimedBatches, TASK_BATCH_SIZE } from "../../src/db/batches";

// How db/batches.ts sizes a task's batches (ADR 0079, 0121, 0122), on a simulated server: each
// batch costs `fixed` plus `row` per row, in ms of a fake clock.

function simulate(fixed: number, row: number, rows: number) {
  let clock = 0;
  let left = rows;
  const limits: number[] = [];
  const batch = async (limit: number) => {
    limits.push(limit);
    const taken = Math.min(limit, left);
    left -= taken;
    clock += fixed + row * taken;
    return taken;
  };
  return { limits, run: () => inTimedBatches(batch, () => clock) };
}

describe("timed batches", () => {
  it("aims a batch's rows at about 4 ms on a quiet server", async () => {
    // 1 ms fixed, 0.05 ms a row: about 80 rows a batch (the first batch's rows are counted in
    // the fixed part, so a little more).
    const quiet = simulate(1, 0.05, 5000);
    expect(await quiet.run()).toBe(5000);
    expect(quiet.limits.slice(0, 4)).toEqual([10, 20, 40, 80]);
    for (const limit of quiet.limits.slice(4, -1)) expect(limit).toBeGreaterThanOrEqual(80);
    for (const limit of quiet.limits.slice(4, -1)) expect(limit).toBeLessThan(100);
  });

  it("keeps a batch's work, not its wall time, when busy cores stretch every statement", async () => {
    // The same server 8 times slower (fixed 8 ms, 0.4 ms a row): timing the rows' wall time at
    // 4 ms pinned batches at 10 rows (500 statements for 5,000 rows); the stretch read off the
    // fixed part (capped at 4 times) lets them grow to 40 rows and more.
    const busy = simulate(8, 0.4, 5000);
    expect(await busy.run()).toBe(5000);
    expect(busy.limits.slice(0, 3)).toEqual([10, 20, 40]);
    for (const limit of busy.limits.slice(3, -1)) expect(limit).toBeGreaterThanOrEqual(40);
    expect(busy.limits.length).toBeLessThan(130);
  });

  it("never passes TASK_BATCH_SIZE, and stops at the first short batch", async () => {
    const cheap = simulate(1, 0.0001, 3 * TASK_BATCH_SIZE + 3);
    expect(await cheap.run()).toBe(3 * TASK_BATCH_SIZE + 3);
    expect(Math.max(...cheap.limits)).toBe(TASK_BATCH_SIZE);
    expect(cheap.limits.at(-1)).toBeGreaterThan(3);
  });
});
