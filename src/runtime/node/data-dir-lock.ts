import { closeSync, ftruncateSync, readFileSync, readlinkSync, writeSync } from "node:fs";
import { type FileHandle, mkdir, open, readdir, readFile, stat, unlink } from "node:fs/promises";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * One owner for the embedded database (ADR 0055, 0087). PGlite is a single-process database: a
 * second process opening the same directory (a second `npm start`, `admin:grant` or `db:migrate`
 * while the server runs) writes pages the first one does not know of, and both lose
 * acknowledged writes. The first process to open the directory holds its lock; any other process
 * finds it and stops with a line naming the holder.
 *
 * Whether a lock's holder is alive decides whether it may be taken over, never its name alone:
 * - in the holder's own process space (the same host name, kernel boot and pid namespace) its
 *   pid is asked: a lock whose process is gone (a crash, kill -9) is taken over at once;
 * - anywhere else (a container recreated on the same volume gets a new host name and a new pid
 *   namespace; another machine on a shared volume) a pid means nothing, so the lease decides:
 *   the holder touches its lock every renewal (10 s) while it runs; a lock untouched for a
 *   lease (30 s) is stale. It is watched until its lease has run out by this host's clock, and
 *   for at least one and a half renewals in any case (clocks of hosts on a shared volume may
 *   disagree): touched meanwhile, its holder is alive and the start stops; untouched, it is taken
 *   over. Only a lock untouched for longer than the lease and MAX_CLOCK_SKEW_MS is stale at once.
 *
 * Layout: `<dataDir>.lock/` holds one file per generation, `holder-<n>.json` (owner-only), the
 * newest of which is the lock. Taking a lock over is creating the next generation's file with
 * O_EXCL: of the processes that judged generation n stale, exactly one creates n+1, the others
 * get EEXIST and judge n+1, whose holder is alive. A process that read the directory long ago
 * may create a number a cleanup already removed; it checks after creating that no newer
 * generation exists, and backs off if one does. Nothing but its creator ever writes a
 * generation file (the renewals touch it through the creator's own descriptor), so no process
 * can overwrite or remove the lock of another: the only race is on O_EXCL, which the file system
 * decides. A clean stop marks its file released instead of removing it, so generations only
 * grow. The winner of a generation removes the older files.
 */

export interface LockHolder {
  pid: number;
  host: string;
  /**
   * Where `pid` names a process: the kernel's boot id and the pid namespace (Linux; null where
   * they cannot be read). Absent from locks written before leases (ADR 0055's single file).
   */
  pid_scope?: string | null;
  command: string;
  since: string;
  /** Set when the holder stopped cleanly. */
  released_at?: string;
}

/** How often a holder touches its lock, and how long an untouched lock stays its holder's. */
export interface LockTiming {
  renewMs: number;
  leaseMs: number;
}

const LOCK_TIMING: LockTiming = { renewMs: 10_000, leaseMs: 30_000 };

/** A generation file created but not yet written is its creator's for this long. */
const WRITE_GRACE_MS = 2_000;
/**
 * How far the clocks of hosts sharing a volume may disagree: a lock last touched longer ago
 * than its lease and this is stale at once; a younger one is watched (see judge).
 */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by process ${holder.pid} ` +
        `(${holder.command} on host ${holder.host}, since ${holder.since}). Stop that process ` +
        "first; only one process may open an embedded database. A lock whose process is gone is " +
        "taken over by the next start (from another host or container once its lease has run out).",
    );
    this.name = "DataDirLockedError";
  }
}

/** The lock directory of `dataDir`, beside it (so it exists before the cluster is copied in). */
export const lockPath = (dataDir: string) => `${dataDir}.lock`;

const GENERATION = /^holder-(\d+)\.json$/;
const generationFile = (dir: string, n: number) => join(dir, `holder-${n}.json`);

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

/** This process's pid scope: kernel boot id and pid namespace; null off Linux. */
function pidScope(): string | null {
  try {
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    return `${boot} ${readlinkSync("/proc/self/ns/pid")}`;
  } catch {
    return null;
  }
}

/**
 * Whether `holder`'s pid can be asked from here: the same host name and, where the lock records
 * it, the same boot and pid namespace. A lock from before leases records no scope: its host name
 * decides, as it did then.
 */
function samePidSpace(holder: LockHolder, me: LockHolder): boolean {
  if (holder.host !== me.host) return false;
  return holder.pid_scope === undefined || holder.pid_scope === me.pid_scope;
}

/** Whether the holder recorded in a lock is still the process that wrote it (same pid space). */
function holderAlive(holder: LockHolder): boolean {
  // This pid: written by this very process (it holds the directory already), or by one that
  // had the pid before it (a container's node is pid 1 at every start).
  if (holder.pid === process.pid) return Date.parse(holder.since) >= performance.timeOrigin - 1_000;
  if (!running(holder.pid)) return false;
  const started = processStartMs(holder.pid);
  // Started well after the lock was written: the pid now belongs to someone else.
  return started === null || started <= Date.parse(holder.since) + 2_000;
}

/** A lock file as seen now: its holder (null while unreadable), when it was last touched. */
interface Seen {
  holder: LockHolder | null;
  mtimeMs: number;
  ino: number;
  size: number;
}

/** The lock file at `path`, or null when it is gone. */
async function look(path: string): Promise<Seen | null> {
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) return null;
  let holder: LockHolder | null = null;
  try {
    const parsed = JSON.parse(await readFile(path, "utf8")) as LockHolder;
    holder = Number.isInteger(parsed.pid) && typeof parsed.host === "string" ? parsed : null;
  } catch {
    // Being written, or its writer died mid-write.
  }
  return { holder, mtimeMs: info.mtimeMs, ino: info.ino, size: info.size };
}

const touched = (a: Seen, b: Seen) =>
  a.mtimeMs !== b.mtimeMs || a.ino !== b.ino || a.size !== b.size;

type Verdict = { alive: true; holder: LockHolder } | { alive: false } | { changed: true };

/**
 * Whether the lock at `path` has a live holder. May wait: for a file its creator is still
 * writing, and for a lease from another pid space to run out. `changed`: the file went or was
 * rewritten meanwhile (judge the newest again).
 */
async function judge(path: string, me: LockHolder, timing: LockTiming): Promise<Verdict> {
  let seen = await look(path);
  while (seen && !seen.holder) {
    if (Date.now() - seen.mtimeMs > WRITE_GRACE_MS) return { alive: false };
    await sleep(50);
    seen = await look(path);
  }
  if (!seen?.holder) return { changed: true };
  const holder = seen.holder;
  if (holder.released_at) return { alive: false };
  if (samePidSpace(holder, me))
    return holderAlive(holder) ? { alive: true, holder } : { alive: false };

  // The lease. Long expired by this host's clock: stale. Otherwise watched until it has run out
  // by this host's clock, and for at least one and a half renewals whatever the clocks say, so
  // a live holder on a host whose clock lags (up to MAX_CLOCK_SKEW_MS) is seen renewing.
  const age = Date.now() - seen.mtimeMs;
  if (age > timing.leaseMs + MAX_CLOCK_SKEW_MS) return { alive: false };
  const left = Math.min(timing.leaseMs, Math.max(timing.leaseMs - age, timing.renewMs * 1.5));
  if (left > 1_000) {
    process.stderr.write(
      `${path}: held by process ${holder.pid} on host ${holder.host}; waiting up to ` +
        `${Math.ceil(left / 1000)} s for its lease to be renewed or to run out\n`,
    );
  }
  const deadline = performance.now() + left;
  const poll = Math.max(10, Math.min(1_000, timing.renewMs / 4));
  while (performance.now() < deadline) {
    await sleep(Math.min(poll, Math.max(0, deadline - performance.now())));
    const now = await look(path);
    if (!now || now.holder?.released_at) return { changed: true };
    if (touched(now, seen)) return { alive: true, holder: now.holder ?? holder };
  }
  return { alive: false };
}

/** The newest generation in the lock directory, or null when there is none. */
async function newestGeneration(dir: string): Promise<number | null> {
  let newest: number | null = null;
  for (const name of await readdir(dir)) {
    const n = Number(GENERATION.exec(name)?.[1] ?? Number.NaN);
    if (Number.isSafeInteger(n) && (newest === null || n > newest)) newest = n;
  }
  return newest;
}

/**
 * ADR 0055's lock was a single file at the lock's path, never renewed: judged once (its host's
 * pid, or else its age against the lease), then removed so the directory can take its place.
 * `unlink` cannot remove a directory, so a process that judged the old file while another
 * replaced it by the directory removes nothing of the new lock.
 */
async function retireSingleFileLock(
  dataDir: string,
  me: LockHolder,
  timing: LockTiming,
): Promise<void> {
  const path = lockPath(dataDir);
  for (let attempt = 0; attempt < 5; attempt++) {
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) return;
    const verdict = await judge(path, me, timing);
    if ("changed" in verdict) continue;
    if (verdict.alive) throw new DataDirLockedError(dataDir, verdict.holder);
    await unlink(path).catch(() => {});
  }
}

const describeCommand = () =>
  process.env.npm_lifecycle_event
    ? `npm run ${process.env.npm_lifecycle_event}`
    : process.argv.slice(1).join(" ").slice(0, 200);

export interface LockOptions {
  timing?: LockTiming;
  /**
   * Called when this process finds its lock taken over (it stalled for longer than the lease and
   * another process judged it gone) or its file gone. Default: one line on stderr, then exit 1:
   * two writers lose data, so the one that lost its lease stops at once.
   */
  onLost?: () => void;
}

/**
 * Takes the lock of `dataDir` for this process, or throws DataDirLockedError naming the process
 * that holds it. Creates `dataDir`'s parent if needed, never `dataDir`. Returns the release
 * function (also run at exit).
 */
export async function lockDataDir(
  dataDir: string,
  options: LockOptions = {},
): Promise<() => Promise<void>> {
  const timing = options.timing ?? LOCK_TIMING;
  const dir = lockPath(dataDir);
  const me: LockHolder = {
    pid: process.pid,
    host: hostname(),
    pid_scope: pidScope(),
    command: describeCommand(),
    since: new Date().toISOString(),
  };
  // DATA_DIR itself, created owner-only when missing; left as it is when it exists (it may be a
  // folder of the operator's).
  await mkdir(dirname(dataDir), { recursive: true, mode: 0o700 });
  await retireSingleFileLock(dataDir, me, timing);
  await mkdir(dir, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "EEXIST") throw error;
  });
  for (let attempt = 0; attempt < 50; attempt++) {
    const newest = await newestGeneration(dir);
    if (newest !== null) {
      const verdict = await judge(generationFile(dir, newest), me, timing);
      if ("changed" in verdict) continue;
      if (verdict.alive) throw new DataDirLockedError(dataDir, verdict.holder);
    }
    const mine = (newest ?? 0) + 1;
    const path = generationFile(dir, mine);
    let file: FileHandle;
    try {
      file = await open(path, "wx", 0o600);
    } catch (error) {
      // Another process took this generation first: judge it next round.
      if ((error as NodeJS.ErrnoException).code === "EEXIST") continue;
      throw error;
    }
    try {
      await file.writeFile(JSON.stringify(me));
      await file.sync();
    } catch (error) {
      // Left empty, the generation is stale after WRITE_GRACE_MS; removed now all the same.
      await file.close().catch(() => {});
      await unlink(path).catch(() => {});
      throw error;
    }
    // A number a cleanup had removed: a newer generation exists, which is the lock.
    if ((await newestGeneration(dir)) !== mine) {
      await file.close();
      await unlink(path).catch(() => {});
      continue;
    }
    await removeOlderGenerations(dir, mine);
    return holdLock(dataDir, dir, mine, file, me, timing, options.onLost);
  }
  throw new Error(`could not lock ${dataDir}: the lock keeps changing`);
}

async function removeOlderGenerations(dir: string, mine: number): Promise<void> {
  for (const name of await readdir(dir)) {
    const n = Number(GENERATION.exec(name)?.[1] ?? Number.NaN);
    if (Number.isSafeInteger(n) && n < mine) await unlink(join(dir, name)).catch(() => {});
  }
}

/** Renews the lease while the process runs; returns the release function. */
function holdLock(
  dataDir: string,
  dir: string,
  mine: number,
  file: FileHandle,
  me: LockHolder,
  timing: LockTiming,
  onLost: (() => void) | undefined,
): () => Promise<void> {
  let released = false;
  const whenLost =
    onLost ??
    (() => {
      process.stderr.write(
        `The lock of the embedded database in ${dataDir} was taken over by another process ` +
          "(this one was not heard from for longer than its lease); stopping so that only one " +
          "process writes.\n",
      );
      process.exit(1);
    });
  /** Not ours any more: the file is left to the new holder's cleanup. */
  const lost = () => {
    if (released) return;
    released = true;
    clearInterval(timer);
    process.off("exit", releaseSync);
    file.close().catch(() => {});
    whenLost();
  };
  const renew = async () => {
    try {
      const now = new Date();
      // Through this process's own descriptor: it touches this generation's file only.
      await file.utimes(now, now);
    } catch {
      lost();
      return;
    }
    // A transient read error is not a loss; the next renewal looks again.
    const newest = await newestGeneration(dir).catch(() => mine);
    if (newest !== mine) lost();
  };
  const timer = setInterval(() => void renew(), timing.renewMs);
  timer.unref();
  const releasedContent = () =>
    JSON.stringify({ ...me, released_at: new Date().toISOString() } satisfies LockHolder);
  const releaseSync = () => {
    // At exit only synchronous work runs; the descriptor reaches this generation's file only.
    if (released) return;
    released = true;
    clearInterval(timer);
    try {
      ftruncateSync(file.fd, 0);
      writeSync(file.fd, releasedContent(), 0);
      closeSync(file.fd);
    } catch {
      // already closed
    }
  };
  process.once("exit", releaseSync);
  return async () => {
    process.off("exit", releaseSync);
    if (released) return;
    released = true;
    clearInterval(timer);
    try {
      await file.truncate(0);
      await file.write(releasedContent(), 0);
      await file.sync();
    } finally {
      await file.close();
    }
  };
}
