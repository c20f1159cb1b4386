import { type ArgonTiming, timeArgonVerify } from "../argon";
import { LIST_PATH } from "../customers";
import { fmt } from "../format";
import {
  CONNECTIONS,
  DURATION_S,
  type LoadSummary,
  type LoadTarget,
  measureInterleaved,
  RUNS,
  WARMUP_S,
} from "../load";
import { loginKeys, nextIp, trackRedisKeys, withClient } from "../resources";
import type { BenchContext } from "../setup";

export interface LoadResult {
  healthApp: LoadSummary;
  healthCeiling: LoadSummary;
  meApp: LoadSummary;
  meCeiling: LoadSummary;
  listApp: LoadSummary;
  listCeiling: LoadSummary;
}

/** GET /health against its ceiling, then GET /me against its ceiling interleaved with the list. */
export async function measureLoad(ctx: BenchContext): Promise<LoadResult> {
  const { app, ceilings, auth, log } = ctx;
  log(
    `\nload: autocannon, ${CONNECTIONS} connections, ${WARMUP_S} s warm-up, ${RUNS} x ${DURATION_S} s (interleaved with the ceiling), median`,
  );
  const [healthApp, healthCeiling] = (await measureInterleaved(
    [
      { name: "app GET /health", url: `${app.url}/health` },
      { name: "ceiling GET /health", url: `${ceilings.health.url}/health` },
    ],
    log,
  )) as [LoadSummary, LoadSummary];
  const [meApp, meCeiling, listApp, listCeiling] = (await measureInterleaved(
    [
      { name: "app GET /me", url: `${app.url}/api/v1/auth/me`, headers: auth },
      { name: "ceiling GET /me", url: `${ceilings.me.url}/api/v1/auth/me`, headers: auth },
      { name: "app GET /customers (list)", url: `${app.url}${LIST_PATH}`, headers: auth },
      {
        name: "ceiling GET /customers (list)",
        url: `${ceilings.list.url}${LIST_PATH}`,
        headers: auth,
      },
    ],
    log,
  )) as [LoadSummary, LoadSummary, LoadSummary, LoadSummary];
  return { healthApp, healthCeiling, meApp, meCeiling, listApp, listCeiling };
}

export interface LoginResult {
  app: LoadSummary;
  /** Theoretical ceiling: hash concurrency / one argon2id verify. */
  ceilingRps: number;
  argon: ArgonTiming;
  /** The stored hash's parameters ("m=...,t=...,p=..."). */
  argonParams: string;
  /** (address, email) pairs used, and the most any one was used. */
  pairs: number;
  maxPairUses: number;
}

/** POST /login against the theoretical ceiling of the app's password hashing. */
export async function measureLogin(ctx: BenchContext): Promise<LoginResult> {
  const { app, users, log, settings } = ctx;
  // Login: every request gets its own X-Forwarded-For, users rotate, so no (address, email)
  // pair of the 5/min login limit is ever used more than once.
  const pairUses = new Map<string, number>();
  let loginSeq = 0;
  const loginTarget: LoadTarget = {
    name: "app POST /login",
    url: `${app.url}/api/v1/auth/login`,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
    setupRequest: (request) => {
      const user = users[loginSeq++ % users.length]!;
      const ip = nextIp();
      const pair = `${ip}|${user.email}`;
      pairUses.set(pair, (pairUses.get(pair) ?? 0) + 1);
      trackRedisKeys(...loginKeys(ip, user.email));
      return {
        ...request,
        headers: { ...request.headers, "x-forwarded-for": ip },
        body: JSON.stringify({ email: user.email, password: settings.password }),
      };
    },
  };
  // Requests cut off at the end of a run keep their place in the app's hash queue (the server
  // does not abort work for a closed connection): pause until it has drained before the next.
  const [loginApp] = (await measureInterleaved([loginTarget], log, { pauseMs: 2000 })) as [
    LoadSummary,
  ];
  const maxPairUses = Math.max(...pairUses.values());

  // argon2id verify, timed on a hash the app stored.
  const storedHash = await withClient(ctx.db.url, async (c) => {
    const { rows } = await c.query<{ password_hash: string }>(
      "select password_hash from users where email = $1",
      [users[0]!.email],
    );
    return rows[0]!.password_hash;
  });
  const argon = await timeArgonVerify(storedHash, settings.password);
  const argonParams = storedHash.split("$")[3];
  log(
    `argon2id verify (@node-rs/argon2, ${argonParams}): median ${fmt(argon.verifyMs, 1)} ms over ${argon.samples.length}`,
  );
  return {
    app: loginApp,
    ceilingRps: (settings.hashConcurrency * 1000) / argon.verifyMs,
    argon,
    argonParams: argonParams ?? "undefined",
    pairs: pairUses.size,
    maxPairUses,
  };
}
