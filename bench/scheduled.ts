import { measureScheduled, type ScheduledTask } from "./scenarios/scheduled";
import { renderScheduled } from "./scheduled-report";

/**
 * The scheduled tasks at scale on their own: `tsx bench/scheduled.ts [task ...] [--users=N]
 * [--customers=N] [--runs=N] [--keep=NAME]` (the scale defaults to SETTINGS.scheduledScale, as in `npm run
 * bench`; smaller for a quick check; --keep seeds a database of that name once and keeps it, for reruns).
 * BENCH_ADMIN_URL: the server's admin connection; progress on
 * stderr, the section on stdout.
 */
const args = process.argv.slice(2);
const text = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const flag = (name: string) => {
  const value = text(name);
  return value === undefined ? undefined : Number(value);
};
const only = args.filter((a) => !a.startsWith("--")) as ScheduledTask[];
const scale = Object.fromEntries(
  (["users", "customers", "runs"] as const).flatMap((key) => {
    const value = flag(key);
    return value === undefined ? [] : [[key, value]];
  }),
);
const result = await measureScheduled({
  adminUrl: process.env.BENCH_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/test",
  log: (line) => process.stderr.write(`${line}\n`),
  only: only.length > 0 ? only : undefined,
  scale,
  keep: text("keep"),
});
process.stdout.write(`${renderScheduled(result)}\n`);
