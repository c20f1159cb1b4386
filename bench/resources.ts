import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { killPgbenchSync } from "./billing";
import type { CountingProxy } from "./pg-count-proxy";
import { killAllChildrenSync, stopAllChildren } from "./proc";
import { SETTINGS } from "./settings";

/** Progress lines go to stderr; the report alone goes to stdout. */
export type Log = (line?: string) => void;
export const log: Log = (line = "") => process.stderr.write(`${line}\n`);

// ---------------------------------------------------------------------------------------------
// What the run has created, so cleanup can remove it whatever happens: children, proxy,
// databases, temp dirs, rate-limit keys.

export const state: {
  adminUrl: string;
  dbName?: string;
  dbCreated: boolean;
  pgbenchDbName?: string;
  tempDirs: string[];
  proxy?: CountingProxy;
  redisUrl?: string;
  redisKeys: Set<string>;
} = {
  adminUrl: process.env.DATABASE_URL || SETTINGS.defaultAdminUrl,
  dbCreated: false,
  tempDirs: [],
  redisKeys: new Set(),
};

export async function withClient<T>(
  url: string,
  run: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export const withAdmin = <T>(run: (client: pg.Client) => Promise<T>) =>
  withClient(state.adminUrl, run);

let cleaning: Promise<void> | undefined;
export function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    await stopAllChildren();
    killAllChildrenSync();
    killPgbenchSync();
    await state.proxy?.close().catch(() => {});
    for (const name of [state.dbCreated ? state.dbName : undefined, state.pgbenchDbName]) {
      if (!name) continue;
      await withAdmin((c) => c.query(`drop database if exists "${name}" with (force)`))
        .then(() => log(`dropped database ${name}`))
        .catch((error) => log(`could not drop database ${name}: ${String(error)}`));
    }
    await Promise.allSettled(
      state.tempDirs.map((dir) => rm(dir, { recursive: true, force: true })),
    );
    if (state.redisUrl && state.redisKeys.size > 0) {
      const redis = new Redis(state.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
      redis.on("error", () => {});
      try {
        await redis.connect();
        const keys = [...state.redisKeys];
        for (let i = 0; i < keys.length; i += 500) await redis.del(...keys.slice(i, i + 500));
        await redis.quit();
      } catch {
        redis.disconnect();
      }
    }
  })();
  return cleaning;
}

/** Kills what can be killed synchronously: for the process `exit` handler. */
export function killAllSync(): void {
  killAllChildrenSync();
  killPgbenchSync();
}

export async function makeTempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  state.tempDirs.push(dir);
  return dir;
}

export async function removeTempDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  state.tempDirs = state.tempDirs.filter((d) => d !== dir);
}

/** Rate-limit keys a request will create in Redis, deleted at cleanup. */
export function trackRedisKeys(...keys: string[]): void {
  for (const key of keys) state.redisKeys.add(key);
}

/** The rate-limit keys one login from `ip` as `email` creates. */
export const loginKeys = (ip: string, email: string): string[] => [
  `rl:login:${ip}|${email}`,
  `rl:login_ip:${ip}`,
  `rl:login_ip_hour:${ip}`,
];

/** X-Forwarded-For values from 198.18.0.0/15 (RFC 2544 benchmarking range), never reused. */
const IP_SPACE = 1 << 17;
let ipSeq = Math.floor(Math.random() * IP_SPACE);
let ipsIssued = 0;
export function nextIp(): string {
  if (++ipsIssued > IP_SPACE) throw new Error("ran out of benchmark addresses");
  const n = ipSeq++ % IP_SPACE;
  return `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
}
