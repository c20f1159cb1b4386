import { fmt, ms, table } from "./format";
import { median } from "./load";
import type { ScheduledResult, ScheduledTaskResult } from "./scenarios/scheduled";
import { SETTINGS } from "./settings";

const { aims: AIMS } = SETTINGS;

const met = (ok: boolean) => (ok ? "MET" : "MISSED");

/**
 * A write's wait attributable to the task: the longest lock wait the sampler saw (a writer's
 * statement waiting on a lock), which is what the task's row locks can cost a user. The extra
 * p99 over the baseline is printed beside it; when it exceeds the lock wait, the difference is
 * CPU and I/O shared with the task on these cores, not a lock.
 */
function waitMet(t: ScheduledTaskResult): boolean {
  return t.locks.longestMs <= AIMS.writerWaitMs;
}

export function renderScheduled(result: ScheduledResult): string {
  const rows = result.tasks.map((t) => {
    const alone = median(t.aloneMs);
    const beside = median(t.runsMs);
    const idle = median(t.idleMs);
    return [
      t.task,
      `${fmt(alone)} ms < ${AIMS.taskAloneS} s ${met(t.ok && alone < AIMS.taskAloneS * 1000)}`,
      `${fmt(beside)} ms < ${AIMS.taskS} s ${met(t.ok && beside < AIMS.taskS * 1000)}`,
      `${fmt(idle)} ms < ${AIMS.taskIdleMs} ms ${met(t.ok && idle < AIMS.taskIdleMs)}`,
      fmt(median(t.rows)),
      `${ms(t.baseline.p50)} / ${ms(t.baseline.p99)} / ${ms(t.baseline.max)}`,
      `${ms(t.during.p50)} / ${ms(t.during.p99)} / ${ms(t.during.max)}`,
      `${t.baselineLocks.waiting}/${t.baselineLocks.samples} (${ms(t.baselineLocks.longestMs)}) | ${t.locks.waiting}/${t.locks.samples}`,
      `${ms(t.locks.longestMs)} <= ${AIMS.writerWaitMs} ms ${met(waitMet(t))}`,
    ];
  });
  const lines = [
    `Scheduled tasks at ${result.customers.toLocaleString("en")} customers, ${result.users.toLocaleString("en")} users ` +
      `(seeded in SQL in ${fmt(result.seedMs / 1000, 1)} s; median of ${result.runs}; each run alone, beside ` +
      `${result.writers} writers on the rows it works on, and with nothing due (a rerun; reminders and ` +
      `pool recycle: the clock before the seed's due times); ${result.cpus} cores)`,
    table(
      [
        "task",
        "alone",
        `beside ${result.writers} writers`,
        "nothing due",
        "rows",
        "writes p50/p99/max idle ms",
        "during ms",
        "looks seeing a lock wait: idle (longest ms) | during",
        "longest lock wait during",
      ],
      rows,
    ),
  ];
  const cpuBound = result.tasks.filter(
    (t) => waitMet(t) && t.during.p99 - t.baseline.p99 > AIMS.writerWaitMs,
  );
  if (cpuBound.length > 0) {
    lines.push(
      `  ${cpuBound.map((t) => t.task).join(", ")}: writes slower during the task by more than ` +
        `${AIMS.writerWaitMs} ms at p99 without waiting on a lock longer than that: the ` +
        `task's statements share the ${result.cpus} cores with the writers (CPU, not locks).`,
    );
  }
  return lines.join("\n");
}
