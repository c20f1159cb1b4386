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

function redact(fields: Fields): Fields {
  const out: Fields = {};
  for (const [key, value] of Object.entries(fields))
    out[key] = REDACTED.test(key) ? "[redacted]" : value;
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
        msg,
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
