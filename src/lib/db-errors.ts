/**
 * What a driver error says, without the database layer: SQLSTATE, constraint, "no connection",
 * and a loggable description. Pure functions over the error object (src/db/client.ts re-exports
 * them), so the HTTP layer can map errors without importing src/db.
 */

/** Postgres error code of a driver error, if it carries one (23505 = unique violation). */
export function pgErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export function pgConstraint(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const name = (current as { constraint?: unknown }).constraint;
    if (typeof name === "string") return name;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Socket-level failures node-postgres and the Neon driver surface in `code` (errno names). */
const CONNECTION_ERRNOS = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);
/** Driver messages that mean "no connection", not "bad statement". */
const CONNECTION_MESSAGES =
  /Connection terminated|connection (?:error|ended|timeout)|timeout exceeded when trying to connect|Client has encountered a connection error|PGlite is clos(?:ed|ing)|WebSocket (?:connection|was closed)|fetch failed|Error connecting to database/i;

/**
 * Why the database cannot be reached, when `error` says so: a refused or reset socket, the
 * server shutting down (57P01-57P03), a connection-class SQLSTATE (08xxx), a pool that cannot
 * connect, a closed PGlite or a Neon WebSocket/fetch failure. The answer is the innermost
 * cause's code or message, which carries no statement text or parameters; undefined for a
 * statement that failed on a live connection.
 */
export function databaseUnavailable(error: unknown): string | undefined {
  let current: unknown = error;
  let found: string | undefined;
  for (let depth = 0; current && depth < 6; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === "string") {
      if (CONNECTION_ERRNOS.has(code)) found = code;
      else if (/^(?:08[0-9A-Z]{3}|57P0[123])$/.test(code)) found = `SQLSTATE ${code}`;
    }
    // Only a driver's own message, never drizzle's wrapper, which quotes the statement.
    if (
      typeof message === "string" &&
      !message.startsWith("Failed query") &&
      CONNECTION_MESSAGES.test(message)
    ) {
      found ??= message.split("\n")[0]!.slice(0, 200);
    }
    current = (current as { cause?: unknown }).cause;
  }
  return found;
}

/** "insert into customers", "select from users", "with": a statement's kind, no values. */
function statementKind(query: string): string | undefined {
  const verb = /^\s*(with|select|insert\s+into|update|delete\s+from)\b/i.exec(query)?.[1];
  if (!verb) return undefined;
  const kind = verb.toLowerCase().replace(/\s+/, " ");
  const table =
    kind === "select" || kind === "with"
      ? /\bfrom\s+"?(\w+)/i.exec(query)?.[1]
      : /^\s*\w+(?:\s+\w+)?\s+"?(\w+)/i.exec(query)?.[1];
  return table ? `${kind}${kind === "select" ? " from" : ""} ${table}` : kind;
}

const FAILED_QUERY = "Failed query: ";

/**
 * Any text with drizzle's "Failed query: <sql>\nparams: <values>" in it (`String(error)`, a
 * stack) cut at that point to the statement's kind: "Failed query (delete from sessions)".
 * The logger applies it to every string it writes (lib/logger.ts).
 */
export function scrubFailedQuery(text: string): string {
  const at = text.indexOf(FAILED_QUERY);
  if (at < 0) return text;
  const query = text.slice(at + FAILED_QUERY.length).split("\nparams: ")[0]!;
  const kind = statementKind(query);
  return `${text.slice(0, at)}Failed query${kind ? ` (${kind})` : ""}`;
}

/**
 * What a log line may say about a failed statement: its SQLSTATE, the constraint, the kind of
 * statement and its first table ("insert into customers"), and the driver's message with any
 * quoted value cut out. Never drizzle's "Failed query: <sql> params: <values>" text or the
 * server's `detail`: both carry users' data (e-mails, names, tokens).
 */
export function describeDbError(error: unknown): {
  code?: string;
  constraint?: string;
  statement?: string;
  cause?: string;
} {
  const out: { code?: string; constraint?: string; statement?: string; cause?: string } = {};
  const code = pgErrorCode(error);
  if (code) out.code = code;
  const constraint = pgConstraint(error);
  if (constraint) out.constraint = constraint;
  let current: unknown = error;
  for (let depth = 0; current && depth < 6; depth++) {
    const { message, query } = current as { message?: unknown; query?: unknown };
    if (typeof query === "string") out.statement = statementKind(query);
    if (typeof message === "string" && !message.startsWith("Failed query")) {
      // "invalid input syntax for type uuid: "<input>"" quotes the value it refused.
      out.cause = message
        .split("\n")[0]!
        .replace(/:\s*".*$/s, ': "[redacted]"')
        .slice(0, 200);
    }
    current = (current as { cause?: unknown }).cause;
  }
  return out;
}
