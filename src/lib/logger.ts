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
