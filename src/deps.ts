import type { Config } from "./config";
import type { Database, Db } from "./db/client";
import { type Clock, systemClock } from "./lib/clock";
import { importEncryptionKey, importHmacKey } from "./lib/crypto";
import { type IdGenerator, uuidIds } from "./lib/ids";
import { createLogger, type Logger } from "./lib/logger";
import { boundedHasher, type PasswordHasher } from "./lib/password";
import type { HostResolver } from "./lib/ssrf";
import { createWechatClient, type WechatClient } from "./providers/messaging/wechat";
import type { RateLimiter } from "./providers/ratelimit/types";

/** Keys generated or configured once per process and imported once. */
export interface Secrets {
  jwtSecret: string;
  csrfSecret: string;
  encryptionKey: string;
}

export interface Keys {
  jwt: CryptoKey;
  csrf: CryptoKey;
  encryption: CryptoKey;
}

/** What a runtime (Node or Workers) provides; buildDeps turns it into Deps. */
export interface RuntimeAdapters {
  database: Database;
  limiter: RateLimiter;
  passwords: PasswordHasher;
  resolveHost: HostResolver;
  secrets: Secrets;
  fetch?: typeof fetch;
  clock?: Clock;
  ids?: IdGenerator;
  logger?: Logger;
  /** Workers: the client IP header the platform sets; Node: none. */
  platformIpHeader?: string;
}

/** Everything with I/O, handed to routes and services; nothing else reads globals. */
export interface Deps {
  config: Config;
  database: Database;
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  limiter: RateLimiter;
  passwords: PasswordHasher;
  keys: Keys;
  resolveHost: HostResolver;
  fetch: typeof fetch;
  wechat: WechatClient | null;
  platformIpHeader: string | undefined;
}

export async function buildDeps(config: Config, runtime: RuntimeAdapters): Promise<Deps> {
  const [jwt, csrf, encryption] = await Promise.all([
    importHmacKey(runtime.secrets.jwtSecret),
    importHmacKey(runtime.secrets.csrfSecret),
    importEncryptionKey(runtime.secrets.encryptionKey),
  ]);
  const fetchImpl = runtime.fetch ?? ((input, init) => fetch(input, init));
  const wechat =
    config.WECHAT_APP_ID && config.WECHAT_APP_SECRET
      ? createWechatClient({
          appId: config.WECHAT_APP_ID,
          appSecret: config.WECHAT_APP_SECRET,
          apiBase: config.WECHAT_API_BASE,
          fetch: fetchImpl,
        })
      : null;
  return {
    config,
    database: runtime.database,
    db: runtime.database.db,
    clock: runtime.clock ?? systemClock,
    ids: runtime.ids ?? uuidIds,
    logger: runtime.logger ?? createLogger(config.LOG_LEVEL),
    limiter: runtime.limiter,
    passwords: boundedHasher(runtime.passwords, {
      concurrency: config.PASSWORD_HASH_CONCURRENCY,
      maxQueue: config.PASSWORD_HASH_QUEUE,
    }),
    keys: { jwt, csrf, encryption },
    resolveHost: runtime.resolveHost,
    fetch: fetchImpl,
    wechat,
    platformIpHeader: runtime.platformIpHeader,
  };
}
