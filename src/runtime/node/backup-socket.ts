import { chmod, unlink } from "node:fs/promises";
import { connect, createServer } from "node:net";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { Database } from "../../db/client";
import type { Logger } from "../../lib/logger";
import { lockPath } from "./data-dir-lock";

/**
 * Hot backups of the embedded database (ADR 0118). PGlite is single-process: while the server
 * runs, no other process may open its directory, and a copy of the files carries the live lock
 * and whatever was half-written. So the server itself dumps: it listens on a Unix socket inside
 * the lock directory (owner-only, like the lock), and `npm run db:backup` asks it there.
 *
 * One request per connection, one line each way: the client sends "dump\n"; the server answers
 * "ok <bytes>\n" followed by the gzipped tarball, or "error <message>\n".
 */

/** Where the server holding `dataDir`'s lock listens for backup requests. */
const backupSocketPath = (dataDir: string) => join(lockPath(dataDir), "backup.sock");

/** A Unix socket's path must fit sun_path (108 bytes on Linux, with its terminating zero). */
const MAX_SOCKET_PATH = 107;

/** The running PGlite under drizzle: the dump must run in the process that has it open. */
const pgliteOf = (database: Database) => (database.db as unknown as { $client: PGlite }).$client;

/**
 * The consistent snapshot: a checkpoint first (so the copy needs little WAL replay at restore),
 * then the dump under the transaction mutex. Every statement and transaction takes that mutex,
 * so the dump starts after the transactions in progress commit and before the next begins: the
 * files are those of a stopped database, whatever requests are in flight.
 */
export async function dumpRunning(database: Database): Promise<Uint8Array> {
  const client = pgliteOf(database);
  await client.exec("checkpoint");
  const dump = await client._runExclusiveTransaction(() => client.dumpDataDir("gzip"));
  return new Uint8Array(await dump.arrayBuffer());
}

/**
 * Serves backup requests for the embedded database at `dataDir` (locked by this process) until
 * the process ends; the socket never keeps it alive. A socket file left by a crashed holder is
 * removed first: the lock is ours, so no one else listens there.
 */
export async function serveBackups(
  dataDir: string,
  database: Database,
  logger: Logger,
): Promise<void> {
  const path = backupSocketPath(dataDir);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH) {
    logger.warn("hot backups off: the data directory's path is too long for a Unix socket", {
      path,
      hint: "stop the server for `npm run db:backup`, or use a shorter DATA_DIR",
    });
    return;
  }
  await unlink(path).catch(() => {});
  const server = createServer((socket) => {
    let request = "";
    socket.setEncoding("utf8");
    socket.on("error", () => socket.destroy());
    socket.on("data", (chunk) => {
      request += chunk;
      if (!request.includes("\n")) return;
      socket.removeAllListeners("data");
      if (request.trim() !== "dump") {
        socket.end("error unknown request\n");
        return;
      }
      const started = performance.now();
      dumpRunning(database).then(
        (dump) => {
          socket.write(`ok ${dump.byteLength}\n`);
          socket.end(dump);
          logger.info("backup served", {
            bytes: dump.byteLength,
            ms: Math.round(performance.now() - started),
          });
        },
        (error) => {
          // A dump asked for while the server stops finds PGlite closed: the client says so.
          logger.warn("backup failed", { error: String(error) });
          socket.end(`error ${String(error).replace(/\s+/g, " ")}\n`);
        },
      );
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(path, () => resolve());
    });
    server.unref();
    await chmod(path, 0o600);
  } catch (error) {
    // The service runs without hot backups rather than not at all; a stopped one backs up.
    server.close();
    logger.warn("hot backups off: cannot listen on the backup socket", {
      path,
      error: String(error),
    });
  }
}

/** Thrown when nothing answers on the socket (no server, or one without hot backups). */
export class NoBackupServerError extends Error {
  constructor(path: string, cause: unknown) {
    super(`no backup socket answers at ${path}: ${String(cause)}`);
    this.name = "NoBackupServerError";
  }
}

/** Asks the server holding `dataDir` for a dump; resolves with the gzipped tarball. */
export function requestDump(dataDir: string): Promise<Uint8Array> {
  const path = backupSocketPath(dataDir);
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    const chunks: Buffer[] = [];
    let connected = false;
    socket.on("connect", () => {
      connected = true;
      socket.write("dump\n");
    });
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", (error) =>
      reject(connected ? error : new NoBackupServerError(path, error.message)),
    );
    socket.on("end", () => {
      const reply = Buffer.concat(chunks);
      const newline = reply.indexOf(10);
      const head = reply.subarray(0, newline < 0 ? reply.length : newline).toString("utf8");
      const ok = /^ok (\d+)$/.exec(head);
      if (!ok) {
        reject(new Error(`the server could not make the backup: ${head.replace(/^error /, "")}`));
        return;
      }
      const body = reply.subarray(newline + 1);
      // The server stopping mid-answer shows as a short body: never written out as a backup.
      if (body.length !== Number(ok[1])) {
        reject(new Error(`the backup arrived cut short (${body.length} of ${ok[1]} bytes)`));
        return;
      }
      resolve(new Uint8Array(body.buffer, body.byteOffset, body.length));
    });
  });
}
