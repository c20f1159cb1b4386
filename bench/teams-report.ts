import { fmt, ms, table } from "./format";
import type { TeamListResult } from "./scenarios/teams";
import { SETTINGS } from "./settings";

const { aims: AIMS } = SETTINGS;

const met = (ok: boolean) => (ok ? "MET" : "MISSED");

/** The company-workspace section of the report (issue #22). */
export function renderTeamList(result: TeamListResult): string {
  const rows = (["first", "search"] as const).map((kind) => {
    const f = result.list[kind];
    return [
      `${kind === "first" ? "first page" : "status + search"} (${f.path})`,
      `${fmt(f.app.rps)} rps, p99 ${ms(f.app.p99Ms)} ms`,
      `${fmt(f.ceiling.rps)} rps, p99 ${ms(f.ceiling.p99Ms)} ms`,
      `${fmt(f.ratio, 2)} >= ${AIMS.teamListOfCeiling} ${met(f.ratio >= AIMS.teamListOfCeiling)}`,
      `${f.total}${f.total === f.expectedTotal ? "" : ` (held + pool: ${f.expectedTotal})`}`,
      f.sameBody ? "byte-identical" : "DIFFERS",
    ];
  });
  const trips = result.roundTrips;
  return [
    `Company workspace: the customer list of a member of an organisation of ${result.members} members and ` +
      `${result.customers.toLocaleString("en")} customers (${result.pool.toLocaleString("en")} in the pool, ` +
      `${result.heldByMember.toLocaleString("en")} held by the member; seeded in ${fmt(result.seedMs / 1000, 1)} s), ` +
      `against the bare node:http ceiling running the app's exact statement (median of 3 interleaved runs)`,
    table(["list", "app", "ceiling", "ratio", "total", "ceiling's JSON"], rows),
    `  DB round trips per request for the member: /me ${fmt(trips.me, 2)}, list ${fmt(trips.list, 2)} ` +
      `(counting proxy, ${trips.meRequests} and ${trips.listRequests} sequential requests, less the instance's ` +
      `idle statements (${fmt(trips.idlePerS, 1)}/s) and its session-revocation refreshes (at most one per 500 ms, shared by all requests); before that ${fmt(trips.raw.me, 2)} and ${fmt(trips.raw.list, 2)}; aim 1: ${met(trips.me < 1.05 && trips.list < 1.05)})`,
  ].join("\n");
}
