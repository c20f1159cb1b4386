import { LIST_PATH } from "../customers";
import { fmt } from "../format";
import { type PgCounts, startCountingProxy } from "../pg-count-proxy";
import { freePort, startNode, waitReady } from "../proc";
import { loginKeys, nextIp, state, trackRedisKeys } from "../resources";
import type { BenchContext } from "../setup";

interface PerRequest {
  requests: number;
  roundTrips: number;
  statements: number;
  readyForQuery: number;
  raw: PgCounts;
}

export interface RoundTripsResult {
  me: PerRequest;
  health: PerRequest;
  login: PerRequest;
  list: PerRequest;
  patchCustomer: PerRequest;
}

const delta = (a: PgCounts, b: PgCounts): PgCounts => ({
  Q: b.Q - a.Q,
  P: b.P - a.P,
  B: b.B - a.B,
  E: b.E - a.E,
  S: b.S - a.S,
  Z: b.Z - a.Z,
  connections: b.connections - a.connections,
});

const perRequest = (counts: PgCounts, requests: number): PerRequest => ({
  requests,
  roundTrips: (counts.Q + counts.S) / requests,
  statements: (counts.Q + counts.E) / requests,
  readyForQuery: counts.Z / requests,
  raw: counts,
});

async function sequential(count: number, run: (i: number) => Promise<void>): Promise<void> {
  for (let i = 0; i < count; i++) await run(i);
}

/**
 * Database round trips per request: a second app instance talks to PostgreSQL through a TCP
 * proxy that counts protocol messages; requests are sent one at a time.
 */
export async function measureRoundTrips(ctx: BenchContext): Promise<RoundTripsResult> {
  const { auth, users, settings } = ctx;
  const { roundTripRequests, roundTripLists, roundTripLogins } = settings;
  const dbUrl = new URL(ctx.db.url);
  const proxy = await startCountingProxy(dbUrl.hostname, Number(dbUrl.port || 5432));
  state.proxy = proxy;
  const proxiedUrl = new URL(ctx.db.url);
  proxiedUrl.hostname = "127.0.0.1";
  proxiedUrl.port = String(proxy.port);
  const countedPort = await freePort();
  const since = performance.now();
  const counted = startNode(
    "app (via counting proxy)",
    settings.appScript,
    { ...ctx.app.env, PORT: String(countedPort), DATABASE_URL: proxiedUrl.toString() },
    countedPort,
  );
  await waitReady(counted, since);
  const countedUrl = `http://127.0.0.1:${countedPort}`;
  const expectOk = async (res: Response, what: string) => {
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${what}: ${res.status} ${text}`);
  };
  const meOnce = async () =>
    expectOk(await fetch(`${countedUrl}/api/v1/auth/me`, { headers: auth }), "/me");
  await sequential(20, meOnce);
  let before = proxy.counts();
  await sequential(roundTripRequests, meOnce);
  const meTrips = perRequest(delta(before, proxy.counts()), roundTripRequests);
  before = proxy.counts();
  await sequential(roundTripRequests, async () =>
    expectOk(await fetch(`${countedUrl}/health`), "/health"),
  );
  const healthTrips = perRequest(delta(before, proxy.counts()), roundTripRequests);
  const listOnce = async () =>
    expectOk(await fetch(`${countedUrl}${LIST_PATH}`, { headers: auth }), "list");
  await sequential(20, listOnce);
  before = proxy.counts();
  await sequential(roundTripLists, listOnce);
  const listTrips = perRequest(delta(before, proxy.counts()), roundTripLists);
  const patchOnce = async () =>
    expectOk(
      await fetch(`${countedUrl}/api/v1/customers/${ctx.list.customerId}`, {
        method: "PATCH",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ notes: "Asked for the spring catalogue" }),
      }),
      "patch",
    );
  await sequential(20, patchOnce);
  before = proxy.counts();
  await sequential(roundTripLists, patchOnce);
  const patchTrips = perRequest(delta(before, proxy.counts()), roundTripLists);
  before = proxy.counts();
  await sequential(roundTripLogins, async (i) => {
    const user = users[i % users.length]!;
    const ip = nextIp();
    trackRedisKeys(...loginKeys(ip, user.email));
    const res = await fetch(`${countedUrl}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": ip },
      body: JSON.stringify({ email: user.email, password: settings.password }),
    });
    await expectOk(res, "/login");
  });
  const loginTrips = perRequest(delta(before, proxy.counts()), roundTripLogins);
  await counted.stop();
  await proxy.close();
  state.proxy = undefined;
  ctx.log(
    `round trips per request: /me ${fmt(meTrips.roundTrips, 2)}, /health ${fmt(healthTrips.roundTrips, 2)}, /login ${fmt(loginTrips.roundTrips, 2)}, list ${fmt(listTrips.roundTrips, 2)}, PATCH customer ${fmt(patchTrips.roundTrips, 2)}`,
  );
  return {
    me: meTrips,
    health: healthTrips,
    login: loginTrips,
    list: listTrips,
    patchCustomer: patchTrips,
  };
}
