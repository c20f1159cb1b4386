import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type pg from "pg";
import { LIST_PATH, SEEDED_CUSTOMER_IDENTITY } from "../customers";
import { fmt } from "../format";
import { type LoadSummary, measureInterleaved } from "../load";
import { type PgCounts, startCountingProxy } from "../pg-count-proxy";
import { baseEnv, type Child, freePort, startNode, waitReady } from "../proc";
import { nextIp, withClient } from "../resources";
import { SETTINGS } from "../settings";

/**
 * Issue #22: the customer list as a `member` of a company sees it (what they hold plus the
 * pool, never another member's), in an organisation of TEAM_MEMBERS members holding
 * TEAM_CUSTOMERS customers, against its bare ceiling measured in the same run: the same
 * bench/ceilings/list.ts the single-user figure uses (the app's exact statement, captured from
 * its query builder, so the scope's subqueries on org_members are in the ceiling's SQL too).
 * Then /me and the list for that member through a counting proxy: still one round trip each.
 */

const TEAM_MEMBERS = 20;
const TEAM_CUSTOMERS = 100_000;
/** One customer in POOL_EVERY is in the pool (user_id null); the rest spread over the members. */
const POOL_EVERY = 20;

/** How long the counting proxy watches the idle instance for its background statements. */
const IDLE_COUNT_MS = 3000;
/** The counted instance's SESSION_REVOCATION_POLL_MS (its default). */
const REVOCATION_POLL_MS = 500;

const TEAM_LIST_PATHS = {
  first: "/api/v1/customers?size=20",
  // The single-user figure's path (status + search), so the two read alike.
  search: LIST_PATH,
} as const;
type TeamListKind = keyof typeof TEAM_LIST_PATHS;

interface TeamListFigure {
  path: string;
  app: LoadSummary;
  ceiling: LoadSummary;
  /** app rps / ceiling rps (medians of the runs). */
  ratio: number;
  /** Whether the ceiling answered the member byte for byte what the app answered. */
  sameBody: boolean;
  /** The app's `total` for the member, and what the scope rule says it should be. */
  total: number;
  expectedTotal: number;
}

export interface TeamListResult {
  members: number;
  customers: number;
  /** Customers in the pool, and those the measured member holds. */
  pool: number;
  heldByMember: number;
  seedMs: number;
  list: Record<TeamListKind, TeamListFigure>;
  /**
   * DB round trips per request for the member (counting proxy, sequential requests, the
   * scheduler off), less the instance's idle statements and the session-revocation refreshes
   * (at most one per poll interval, shared by all requests); `raw` without that correction.
   */
  roundTrips: {
    me: number;
    list: number;
    raw: { me: number; list: number };
    idlePerS: number;
    meRequests: number;
    listRequests: number;
  };
}

interface Registered {
  id: string;
  email: string;
  token: string;
}

async function register(appUrl: string, index: number): Promise<Omit<Registered, "id">> {
  const email = `bench-team-${process.pid}-${index}@example.com`;
  const res = await fetch(`${appUrl}/api/v1/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": nextIp() },
    body: JSON.stringify({ email, password: SETTINGS.password, name: `Team ${index}` }),
  });
  const body = (await res.json()) as { access_token?: string };
  if (res.status !== 201 || !body.access_token) {
    throw new Error(`register ${email}: ${res.status} ${JSON.stringify(body)}`);
  }
  return { email, token: body.access_token };
}

/**
 * The company: the first account's personal organisation (made by the users_personal_org
 * trigger) becomes the company on the business plan; every other account moves into it as an
 * accepted invitation would (their empty personal organisations go). Roles: one owner, one
 * admin, two managers, the rest members.
 */
async function formCompany(client: pg.Client, people: Registered[]): Promise<string> {
  const owner = people[0]!;
  const { rows } = await client.query<{ org_id: string }>(
    "select org_id from org_members where user_id = $1",
    [owner.id],
  );
  const orgId = rows[0]!.org_id;
  const others = people.slice(1).map((p) => p.id);
  await client.query(
    `with moved as (
       select m.user_id, m.org_id as old_org from org_members m where m.user_id = any($2::uuid[]))
     update org_members m set org_id = $1,
       role = case array_position($2::uuid[], m.user_id) when 1 then 'admin'
         when 2 then 'manager' when 3 then 'manager' else 'member' end
     from moved where m.user_id = moved.user_id`,
    [orgId, others],
  );
  await client.query(
    `delete from orgs o where o.id <> $1
       and not exists (select 1 from org_members m where m.org_id = o.id)`,
    [orgId],
  );
  // Seats and the customer cap are the plan's: a company of 20 with 100,000 customers is on
  // the top plan.
  await client.query(
    "update orgs set plan = 'business', plan_expires_at = null, trial_ends_at = null where id = $1",
    [orgId],
  );
  return orgId;
}

/**
 * TEAM_CUSTOMERS customers of the organisation, held by the members in turn, then about one in
 * POOL_EVERY (picked by a hash of its id, so spread over every member and time) released to the pool; the columns as the single-user list's seed (bench/customers.ts), the
 * search term in every 33rd company, created_at spread over the past year.
 */
async function seedTeamCustomers(
  client: pg.Client,
  orgId: string,
  holders: string[],
  customers: number,
) {
  await client.query(
    `insert into customers (org_id, user_id, company, contact_name, email, phone, country,
       status, tags, estimated_value, estimated_currency, notes, last_contact_at,
       next_followup_at, created_at, updated_at)
     select $1::uuid, ($2::uuid[])[1 + i % array_length($2::uuid[], 1)],
       ${SEEDED_CUSTOMER_IDENTITY},
       case when i % 6 = 0 then null else (i * 7919) % 5000000 end,
       case when i % 5 = 0 then 'EUR' else 'USD' end,
       case when i % 5 = 0 then 'Met at the trade fair' end,
       case when i % 3 <> 0 then now() - make_interval(days => (i * 13) % 120) end,
       case when i % 2 = 0 then now() + make_interval(days => (i * 7) % 40 - 10) end,
       ts, ts
     from generate_series(1, $3::int) as i,
       lateral (select now() - make_interval(secs => i * (31536000.0 / $3::int) + (i * 7919) % 3600) as ts) t`,
    [orgId, holders, customers],
  );
  // Released by their holders, as a pool fills in life (the seed writes no ownership events).
  await client.query(
    `update customers set user_id = null
     where org_id = $1 and ('x' || substr(md5(id::text), 1, 8))::bit(32)::int % ${POOL_EVERY} = 0`,
    [orgId],
  );
  // As autovacuum does after that many inserts: the steady state the list runs in.
  await client.query("vacuum analyze customers");
}

/** What the scope rule gives a `member` for a list path: held by them or in the pool. */
async function expectedTotal(client: pg.Client, orgId: string, userId: string, path: string) {
  const url = new URL(path, "http://bench");
  const status = url.searchParams.get("status");
  const q = url.searchParams.get("q");
  const { rows } = await client.query<{ n: number }>(
    `select count(*)::int as n from customers
     where org_id = $1 and (user_id = $2 or user_id is null)
       and ($3::text is null or status = $3)
       and ($4::text is null or lower(company) like $4 or lower(contact_name) like $4
         or email like $4)`,
    [orgId, userId, status, q ? `%${q.toLowerCase()}%` : null],
  );
  return rows[0]!.n;
}

async function getText(url: string, headers: Record<string, string>) {
  const res = await fetch(url, { headers });
  return { status: res.status, text: await res.text() };
}

const roundTripsOf = (a: PgCounts, b: PgCounts, requests: number) =>
  (b.Q - a.Q + (b.S - a.S)) / requests;

/** /me and the list for the member through a second app whose database link is counted. */
async function countRoundTrips(
  dbUrl: string,
  appEnv: NodeJS.ProcessEnv,
  auth: Record<string, string>,
) {
  const target = new URL(dbUrl);
  const proxy = await startCountingProxy(target.hostname, Number(target.port || 5432));
  const proxied = new URL(dbUrl);
  proxied.hostname = "127.0.0.1";
  proxied.port = String(proxy.port);
  const port = await freePort();
  const since = performance.now();
  const counted = startNode(
    "app (team, via counting proxy)",
    SETTINGS.appScript,
    {
      ...appEnv,
      PORT: String(port),
      DATABASE_URL: proxied.toString(),
      // The scheduled tasks' statements are no request's (they run every minute in bursts).
      SCHEDULER_ENABLED: "false",
      SESSION_REVOCATION_POLL_MS: String(REVOCATION_POLL_MS),
    },
    port,
  );
  try {
    await waitReady(counted, since);
    const base = `http://127.0.0.1:${port}`;
    // What the instance sends with no request running (timers) is no request's: its rate is
    // counted idle and taken off.
    const idleFrom = proxy.counts();
    const idleStarted = performance.now();
    await new Promise((resolve) => setTimeout(resolve, IDLE_COUNT_MS));
    const idlePerMs = roundTripsOf(idleFrom, proxy.counts(), 1) / (performance.now() - idleStarted);
    // As many sequential requests as the single-user figures.
    const trips = async (path: string, requests: number) => {
      const once = async () => {
        const res = await getText(`${base}${path}`, auth);
        if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text.slice(0, 300)}`);
      };
      for (let i = 0; i < 20; i++) await once();
      const before = proxy.counts();
      const started = performance.now();
      for (let i = 0; i < requests; i++) await once();
      const elapsed = performance.now() - started;
      // The set of ended sessions is refreshed by the first request that finds it older than
      // the poll interval, for every request in flight (src/modules/auth/revocations.ts): at
      // most one query per interval, which slow requests (a loaded machine) meet more often.
      const refreshes = Math.floor(elapsed / REVOCATION_POLL_MS) + 1;
      const raw = roundTripsOf(before, proxy.counts(), requests);
      return { raw, net: (raw * requests - idlePerMs * elapsed - refreshes) / requests };
    };
    const me = await trips("/api/v1/auth/me", SETTINGS.roundTripRequests);
    const list = await trips(TEAM_LIST_PATHS.first, SETTINGS.roundTripLists);
    return {
      me: me.net,
      list: list.net,
      raw: { me: me.raw, list: list.raw },
      idlePerS: idlePerMs * 1000,
      meRequests: SETTINGS.roundTripRequests,
      listRequests: SETTINGS.roundTripLists,
    };
  } finally {
    await counted.stop();
    await proxy.close();
  }
}

export async function measureTeamList(ctx: {
  adminUrl: string;
  log: (line: string) => void;
  /** Smaller sizes for a quick check (bench/teams.ts --customers=N --members=N). */
  members?: number;
  customers?: number;
}): Promise<TeamListResult> {
  const { log } = ctx;
  const members = ctx.members ?? TEAM_MEMBERS;
  const customers = ctx.customers ?? TEAM_CUSTOMERS;
  if (members < 5) throw new Error("a team of at least 5: owner, admin, two managers, a member");
  const dbName = `bench_team_${process.pid}`;
  const dbUrl = new URL(ctx.adminUrl);
  dbUrl.pathname = `/${dbName}`;
  const url = dbUrl.toString();
  await withClient(ctx.adminUrl, async (c) => {
    await c.query(`drop database if exists "${dbName}" with (force)`);
    await c.query(`create database "${dbName}"`);
  });
  const dataDir = await mkdtemp(join(tmpdir(), "bench-team-"));
  const children: Child[] = [];
  try {
    const port = await freePort();
    const appUrl = `http://127.0.0.1:${port}`;
    const appEnv: NodeJS.ProcessEnv = {
      ...baseEnv(),
      ...SETTINGS.secrets,
      APP_ENV: "production",
      PORT: String(port),
      DATABASE_URL: url,
      DATABASE_POOL_SIZE: String(SETTINGS.poolSize),
      ALLOW_MEMORY_RATE_LIMIT: "true",
      PUBLIC_BASE_URL: appUrl,
      CORS_ORIGINS: appUrl,
      FRONTEND_URL: "https://app.example.test",
      ALLOW_NO_MAIL: "true",
      LOG_LEVEL: "warn",
      DATA_DIR: dataDir,
      TRUST_PROXY: "1",
    };
    const app = startNode("app (team)", SETTINGS.appScript, appEnv, port);
    children.push(app);
    await waitReady(app, performance.now());
    log(`\nteam list: database ${dbName}, app on :${port}`);

    const tokens: Omit<Registered, "id">[] = [];
    for (let i = 0; i < members; i++) tokens.push(await register(appUrl, i));
    const started = performance.now();
    const { orgId, people } = await withClient(url, async (client) => {
      const { rows } = await client.query<{ id: string; email: string }>(
        "select id, email from users where email = any($1::text[])",
        [tokens.map((t) => t.email)],
      );
      const idOf = new Map(rows.map((r) => [r.email, r.id]));
      const people = tokens.map((t) => ({ ...t, id: idOf.get(t.email)! }));
      const orgId = await formCompany(client, people);
      await seedTeamCustomers(
        client,
        orgId,
        people.map((p) => p.id),
        customers,
      );
      return { orgId, people };
    });
    const seedMs = performance.now() - started;
    // The last account is a plain `member` (formCompany gives roles by position).
    const member = people.at(-1)!;
    const auth = { authorization: `Bearer ${member.token}` };
    const counts = await withClient(url, async (client) => {
      const { rows } = await client.query<{ pool: number; held: number }>(
        `select count(*) filter (where user_id is null)::int as pool,
           count(*) filter (where user_id = $2)::int as held
         from customers where org_id = $1`,
        [orgId, member.id],
      );
      const totals = {} as Record<TeamListKind, number>;
      for (const kind of Object.keys(TEAM_LIST_PATHS) as TeamListKind[]) {
        totals[kind] = await expectedTotal(client, orgId, member.id, TEAM_LIST_PATHS[kind]);
      }
      return { ...rows[0]!, totals };
    });
    log(
      `  ${members} members, ${customers} customers (${counts.pool} in the pool, ${counts.held} held by the measured member) seeded in ${fmt(seedMs)} ms`,
    );

    // One ceiling per path: each serves the one statement it captured at start.
    const ceilingUrls = {} as Record<TeamListKind, string>;
    for (const kind of Object.keys(TEAM_LIST_PATHS) as TeamListKind[]) {
      const ceilingPort = await freePort();
      const since = performance.now();
      const ceiling = startNode(
        `ceiling team list (${kind})`,
        "bench/ceilings/list.ts",
        {
          ...baseEnv(),
          PORT: String(ceilingPort),
          DATABASE_URL: url,
          DATABASE_POOL_SIZE: String(SETTINGS.poolSize),
          JWT_SECRET: SETTINGS.secrets.JWT_SECRET,
          LIST_PATH: TEAM_LIST_PATHS[kind],
        },
        ceilingPort,
      );
      children.push(ceiling);
      await waitReady(ceiling, since, { path: TEAM_LIST_PATHS[kind], status: 401 });
      ceilingUrls[kind] = `http://127.0.0.1:${ceilingPort}`;
    }

    const checks = {} as Record<TeamListKind, { sameBody: boolean; total: number }>;
    for (const kind of Object.keys(TEAM_LIST_PATHS) as TeamListKind[]) {
      const path = TEAM_LIST_PATHS[kind];
      const fromApp = await getText(`${appUrl}${path}`, auth);
      const fromCeiling = await getText(`${ceilingUrls[kind]}${path}`, auth);
      if (fromApp.status !== 200) {
        throw new Error(`team list ${kind}: ${fromApp.status} ${fromApp.text.slice(0, 300)}`);
      }
      const total = (JSON.parse(fromApp.text) as { total: number }).total;
      const sameBody = fromCeiling.status === 200 && fromCeiling.text === fromApp.text;
      checks[kind] = { sameBody, total };
      if (total !== counts.totals[kind]) {
        log(
          `  note: the app's ${kind} list total for the member is ${total}; held + pool is ${counts.totals[kind]}`,
        );
      }
      if (!sameBody) {
        log(
          `  note: the ${kind} ceiling's body differs from the app's:\n    app     ${fromApp.text.slice(0, 200)}\n    ceiling ${fromCeiling.status} ${fromCeiling.text.slice(0, 200)}`,
        );
      }
    }

    const [firstApp, firstCeiling, searchApp, searchCeiling] = (await measureInterleaved(
      [
        {
          name: "app team list (first page)",
          url: `${appUrl}${TEAM_LIST_PATHS.first}`,
          headers: auth,
        },
        {
          name: "ceiling team list (first page)",
          url: `${ceilingUrls.first}${TEAM_LIST_PATHS.first}`,
          headers: auth,
        },
        {
          name: "app team list (search)",
          url: `${appUrl}${TEAM_LIST_PATHS.search}`,
          headers: auth,
        },
        {
          name: "ceiling team list (search)",
          url: `${ceilingUrls.search}${TEAM_LIST_PATHS.search}`,
          headers: auth,
        },
      ],
      log,
    )) as [LoadSummary, LoadSummary, LoadSummary, LoadSummary];
    for (const summary of [firstApp, firstCeiling, searchApp, searchCeiling]) {
      if (summary.non2xx + summary.errors > 0) {
        throw new Error(`${summary.name}: ${summary.non2xx} non-2xx, ${summary.errors} errors`);
      }
    }
    const figure = (
      kind: TeamListKind,
      appLoad: LoadSummary,
      ceilingLoad: LoadSummary,
    ): TeamListFigure => ({
      path: TEAM_LIST_PATHS[kind],
      app: appLoad,
      ceiling: ceilingLoad,
      ratio: appLoad.rps / ceilingLoad.rps,
      sameBody: checks[kind].sameBody,
      total: checks[kind].total,
      expectedTotal: counts.totals[kind],
    });
    const list = {
      first: figure("first", firstApp, firstCeiling),
      search: figure("search", searchApp, searchCeiling),
    };
    for (const child of children.splice(1)) await child.stop();
    await app.stop();
    children.length = 0;

    const roundTrips = await countRoundTrips(url, appEnv, auth);
    log(
      `  team list for a member: first page ${fmt(list.first.ratio, 2)} of its ceiling, search ${fmt(list.search.ratio, 2)}; round trips per /me ${fmt(roundTrips.me, 2)}, per list ${fmt(roundTrips.list, 2)}`,
    );
    return {
      members,
      customers,
      pool: counts.pool,
      heldByMember: counts.held,
      seedMs,
      list,
      roundTrips,
    };
  } finally {
    for (const child of children) await child.stop();
    await rm(dataDir, { recursive: true, force: true });
    await withClient(ctx.adminUrl, (c) =>
      c.query(`drop database if exists "${dbName}" with (force)`),
    ).catch((error) => log(`could not drop database ${dbName}: ${String(error)}`));
  }
}
