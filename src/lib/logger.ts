import { describeDbError, scrubFailedQuery } from "./db-errors";

export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
type Fields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: Fields): void;
  info(msg: string, fields?: Fields): void;
  warn(msg: string, fields?: Fields): void;
  error(msg: string, fields?: Fields): void;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };
/** Never log these even if a caller passes them by mistake. */
const REDACTED = /pass(word)?|token|secret|authorization|cookie|api[_-]?key/i;
/** How deep the logger looks into a field's objects and arrays; deeper is cut. */
const MAX_DEPTH = 4;
/** ASCII classes by code: 1 = an address's local part (RFC 5322 atext and the dot), 2 = domain. */
const CHAR_CLASS = new Uint8Array(128);
for (const c of "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-") {
  CHAR_CLASS[c.charCodeAt(0)] = 3;
}
for (const c of "!#$%&'*+/=?^_`{|}~") CHAR_CLASS[c.charCodeAt(0)] = 1;
const isLocalChar = (code: number) => code < 128 && (CHAR_CLASS[code]! & 1) !== 0;
const isDomainChar = (code: number) => code < 128 && (CHAR_CLASS[code]! & 2) !== 0;
const DOMAIN = /^[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/;

/**
 * `buyer@corp.example` as `b***@corp.example`: which domain a mail went to, not whose mailbox.
 * Applied to every string the logger writes, so no caller has to remember it. Linear in the
 * text: each `@` looks back only to the previous match or `@` and forward to the next `@` (a
 * regular expression over the local part rescanned a long run of its characters from every
 * start: quadratic, and the access log passes every request's path through here).
 */
export function maskEmails(text: string): string {
  let out = "";
  let last = 0;
  for (let at = text.indexOf("@"); at !== -1; at = text.indexOf("@", at + 1)) {
    let start = at;
    while (start > last && isLocalChar(text.charCodeAt(start - 1))) start--;
    while (start < at && text[start] === ".") start++;
    let end = at + 1;
    while (end < text.length && isDomainChar(text.charCodeAt(end))) end++;
    const domain = DOMAIN.exec(text.slice(at + 1, end).split("..")[0]!)?.[0];
    if (start === at || !domain) continue;
    out += `${text.slice(last, start)}${text[start]}***@${domain}`;
    last = at + 1 + domain.length;
  }
  return last === 0 ? text : out + text.slice(last);
}

/** What a log may say of any text: no statement or parameters, no full address. */
function scrubText(text: string): string {
  return maskEmails(scrubFailedQuery(text));
}

/**
 * An error as a log field: a failed statement by its SQLSTATE, constraint and kind
 * (describeDbError), anything else by its name and scrubbed message. Never the error object
 * itself: drizzle's carries `query` and `params`, node-postgres's `detail` with the row's values.
 */
function describeError(error: Error): unknown {
  const db = describeDbError(error);
  if (db.code !== undefined || db.statement !== undefined) {
    return { name: error.name, ...db, ...(db.cause ? { cause: scrubText(db.cause) } : {}) };
  }
  return scrubText(`${error.name}: ${error.message}`);
}

function scrubValue(value: unknown, depth: number): unknown {
  if (typeof value === "string") return scrubText(value);
  if (value instanceof Error) return describeError(value);
  if (typeof value !== "object" || value === null) return value;
  if (depth >= MAX_DEPTH) return "[truncated]";
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, depth + 1));
  const proto = Object.getPrototypeOf(value);
  // Dates, URLs and the like serialize to what they are; only plain objects are walked.
  if (proto !== Object.prototype && proto !== null) return value;
  return redact(value as Fields, depth + 1);
}

/**
 * Every field as it may be written: secret-named keys dropped, and every value scrubbed
 * (scrubValue) however the caller built it: `String(error)`, the error, a stack, nested.
 */
function redact(fields: Fields, depth = 0): Fields {
  const out: Fields = {};
  for (const [key, value] of Object.entries(fields))
    out[key] = REDACTED.test(key) ? "[redacted]" : scrubValue(value, depth);
  return out;
}

/** JSON lines on stdout/stderr: one object per event, works on Node and Workers alike. */
export function createLogger(
  level: LogLevel,
  sink: (line: string, level: LogLevel) => void = defaultSink,
): Logger {
  const min = ORDER[level];
  const emit = (lvl: LogLevel, msg: string, fields?: Fields) => {
    if (ORDER[lvl] < min) return;
    sink(
      JSON.stringify({
        time: new Date().toISOString(),
        level: lvl,
        msg: scrubText(msg),
        ...(fields && redact(fields)),
      }),
      lvl,
    );
  };
  return {
    debug: (msg, fields) => emit("debug", msg, fields),
    info: (msg, fields) => emit("info", msg, fields),
    warn: (msg, fields) => emit("warn", msg, fields),
    error: (msg, fields) => emit("error", msg, fields),
  };
}

function defaultSink(line: string, level: LogLevel) {
  if (level === "error" || level === "warn") console.error(line);
  else console.log(line);
}

/** A dependency every route needs; its outage is logged once per episode, not per request. */
export type Dependency = "database" | "limiter";

/** How long an unrecovered outage stays quiet before it is logged again (still down). */
export const OUTAGE_REPEAT_MS = 60_000;

export interface OutageLog {
  /** Notes a failure; logs one error line if this starts an episode or the last line is a minute old. */
  down(dependency: Dependency, nowMs: number, fields: Fields): void;
  /** The dependency answered: logs the recovery once, and the next failure is a new episode. */
  up(dependency: Dependency, nowMs: number): void;
  /** Whether a failure has been seen and no answer since (for /health/ready). */
  isDown(dependency: Dependency): boolean;
}

interface Episode {
  since: number;
  loggedAt: number;
  failures: number;
}

const outageLogs = new WeakMap<Logger, OutageLog>();

/**
 * The outage log of one logger (so one per app instance, and a test's own logger gets its own).
 * A lost database fails every request: a stack per request would bury the cause and fill the
 * disk; one line per episode with the failure count says the same.
 */
export function outageLog(logger: Logger): OutageLog {
  let log = outageLogs.get(logger);
  if (!log) {
    log = createOutageLog(logger);
    outageLogs.set(logger, log);
  }
  return log;
}

function createOutageLog(logger: Logger): OutageLog {
  const episodes = new Map<Dependency, Episode>();
  return {
    down(dependency, nowMs, fields) {
      const episode = episodes.get(dependency);
      if (!episode) {
        episodes.set(dependency, { since: nowMs, loggedAt: nowMs, failures: 1 });
        logger.error(`${dependency} unavailable`, { dependency, ...fields });
        return;
      }
      episode.failures++;
      if (nowMs - episode.loggedAt >= OUTAGE_REPEAT_MS) {
        logger.error(`${dependency} still unavailable`, {
          dependency,
          failures: episode.failures,
          down_ms: nowMs - episode.since,
          ...fields,
        });
        episode.loggedAt = nowMs;
      }
    },
    up(dependency, nowMs) {
      const episode = episodes.get(dependency);
      if (!episode) return;
      episodes.delete(dependency);
      logger.warn(`${dependency} recovered`, {
        dependency,
        failures: episode.failures,
        down_ms: nowMs - episode.since,
      });
    },
    isDown: (dependency) => episodes.has(dependency),
  };
}
