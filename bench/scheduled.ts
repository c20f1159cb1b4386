import type { CronTask } from "../src/jobs/schedules";
import { measureScheduled } from "./scenarios/scheduled";
import { renderScheduled } from "./scheduled-report";

/**
 * The scheduled tasks at scale on their own: `tsx bench/scheduled.ts [task ...]`
 * (BENCH_ADMIN_URL: the server's admin connection; progress on stderr, the section on stdout).
 */
const only = process.argv.slice(2) as CronTask[];
const result = await measureScheduled({
  adminUrl: process.env.BENCH_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/test",
  log: (line) => process.stderr.write(`${line}\n`),
  only: only.length > 0 ? only : undefined,
});
process.stdout.write(`${renderScheduled(result)}\n`);
