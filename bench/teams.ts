import { measureTeamList } from "./scenarios/teams";
import { renderTeamList } from "./teams-report";

/**
 * The company-workspace list figure on its own (issue #22): `tsx bench/teams.ts
 * [--members=N] [--customers=N]` (defaults 20 and 100,000, as in `npm run bench`; smaller for a
 * quick check). BENCH_ADMIN_URL: the server's admin connection; progress on stderr, the section
 * on stdout.
 */
const flag = (name: string) => {
  const value = process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
  return value === undefined ? undefined : Number(value);
};
const result = await measureTeamList({
  adminUrl: process.env.BENCH_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/test",
  log: (line) => process.stderr.write(`${line}\n`),
  members: flag("members"),
  customers: flag("customers"),
});
process.stdout.write(`${renderTeamList(result)}\n`);
process.exit(0);
