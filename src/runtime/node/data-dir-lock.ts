import { readFileSync, unlinkSync } from "node:fs";
import { open, readFile, unlink } from "node:fs/promises";
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * One owner for the embedded database. PGlite is a single-process database: a second process
 * opening the same directory (a second `npm start`, `admin:grant` or `db:migrate` while the
 * server runs) writes pages the first one does not know of, and both lose acknowledged writes.
 * The first process to open the directory writes a lock file with its pid; any other process
 * finds it and stops with a line naming the holder. A lock left by a process that died (kill -9,
 * a crash) names a pid that no longer runs on this host and is taken over.
 */

export interface LockHolder {
  pid: number;
  host: string;
  command: string;
  since: string;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by process ${holder.pid} ` +
        `(${holder.command}, since ${holder.since}). Stop that process first; only one process ` +
        `may open an embedded database. If no such process runs, delete ${lockPath(dataDir)}.`,
    );
    this.name = "DataDirLockedError";
  }
}

export const lockPath = (dataDir: string) => `${dataDir}.lock`;

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Linux: when the process now holding `pid` started (ms since the epoch), from /proc; null where
 * that cannot be read. A pid is reused after a crash (a container's node is pid 1 every time).
 */
function processStartMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces) start after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const startTicks = Number(fields[19]);
    const bootSeconds = Number(/^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1]);
    if (!Number.isFinite(startTicks) || !Number.isFinite(bootSeconds)) return null;
    return bootSeconds * 1000 + (startTicks / 100) * 1000; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

/** Whether the holder recorded in a lock is still the process that wrote it. */
function holderAlive(holder: LockHolder): boolean {
  if (holder.pid === process.pid || !running(holder.pid)) return false;
  const started = processStartMs(holder.pid);
  // Started well after the lock was written: the pid now belongs to someone else.
  return started === null || started <= Date.parse(holder.since) + 2_000;
}

async function readHolder(path: string): Promise<LockHolder | null> {
  try {
    const holder = JSON.parse(await readFile(path, "utf8")) as LockHolder;
    return Number.isInteger(holder.pid) ? holder : null;
  } catch {
    return null;
  }
}

const describeCommand = () =>
  process.env.npm_lifecycle_event
    ? `npm run ${process.env.npm_lifecycle_event}`
    : process.argv.slice(1).join(" ").slice(0, 200);

/**
 * Takes the lock of `dataDir` for this process, or throws DataDirLockedError naming the process
 * that holds it. Returns the release function (also run at exit).
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const path = lockPath(dataDir);
  const me: LockHolder = {
    pid: process.pid,
    host: hostname(),
    command: describeCommand(),
    since: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const file = await open(path, "wx", 0o600);
      try {
        await file.writeFile(JSON.stringify(me));
      } finally {
        await file.close();
      }
      return releaser(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    // An empty lock may be one another process created a moment ago and is still writing.
    const holder = (await readHolder(path)) ?? (await sleep(100).then(() => readHolder(path)));
    // Another host (a shared volume) cannot be probed: its lock is respected.
    if (holder && (holder.host !== me.host || holderAlive(holder))) {
      throw new DataDirLockedError(dataDir, holder);
    }
    // A stale or unreadable lock (its process died mid-write or long ago): take it over, unless
    // another process starting at the same moment took it over first.
    const again = await readHolder(path);
    if (again?.pid !== holder?.pid || again?.since !== holder?.since) continue;
    await unlink(path).catch(() => {});
  }
  throw new Error(`could not lock ${dataDir}: the lock file keeps changing`);
}

function releaser(path: string): () => Promise<void> {
  let released = false;
  const releaseSync = () => {
    // At exit only synchronous work runs; the lock is removed only if it is still ours.
    if (released) return;
    released = true;
    try {
      const holder = JSON.parse(readFileSync(path, "utf8")) as LockHolder;
      if (holder.pid === process.pid) unlinkSync(path);
    } catch {
      // already gone
    }
  };
  process.once("exit", releaseSync);
  return async () => {
    process.off("exit", releaseSync);
    if (released) return;
    released = true;
    const holder = await readHolder(path);
    if (holder?.pid === process.pid) await unlink(path).catch(() => {});
  };
}
