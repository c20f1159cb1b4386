import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import {
  DataDirLockedError,
  type LockHolder,
  type LockTiming,
  lockDataDir,
  lockPath,
} from "../../src/runtime/node/data-dir-lock";

const root = await mkdtemp(join(tmpdir(), "ta-lockunit-"));
afterAll(() => rm(root, { recursive: true, force: true }));

/** Short renewals and lease, so a lease runs out within a test. */
const FAST: LockTiming = { renewMs: 50, leaseMs: 600 };

let dirs = 0;
const newDir = () => join(root, `d${++dirs}`, "pglite");

/** This process's own lock record (its pid scope included), from a lock it takes and releases. */
const own: LockHolder = await (async () => {
  const dir = newDir();
  const release = await lockDataDir(dir);
  const record = await newest(dir);
  await release();
  return record.holder;
})();

/** The newest generation of `dir`'s lock: its number and record. */
async function newest(dir: string): Promise<{ n: number; holder: LockHolder }> {
  const numbers = (await readdir(lockPath(dir)))
    .map((name) => Number(/^holder-(\d+)\.json$/.exec(name)?.[1]))
    .filter(Number.isInteger);
  const n = Math.max(...numbers);
  const text = await readFile(join(lockPath(dir), `holder-${n}.json`), "utf8");
  return { n, holder: JSON.parse(text) as LockHolder };
}

/** Writes generation `n` of `dir`'s lock as another process would have, last touched `ageMs` ago. */
async function writeLock(
  dir: string,
  holder: Partial<LockHolder> | string,
  { n = 1, ageMs = 0 } = {},
): Promise<string> {
  await mkdir(lockPath(dir), { recursive: true });
  const path = join(lockPath(dir), `holder-${n}.json`);
  const since = new Date(Date.now() - ageMs).toISOString();
  await writeFile(
    path,
    typeof holder === "string" ? holder : JSON.stringify({ ...own, since, ...holder }),
  );
  const touched = new Date(Date.now() - ageMs);
  await utimes(path, touched, touched);
  return path;
}

const refusal = (dir: string, timing = FAST) =>
  lockDataDir(dir, { timing }).then(
    async (release) => {
      await release();
      throw new Error("the lock was taken");
    },
    (error: unknown) => error,
  );

/** A process elsewhere: another container's host name and pid namespace. */
const ELSEWHERE = { host: "9f3c2a1b7d6e", pid_scope: "another-boot pid:[4026532000]" };

describe("the data directory lock: same pid space, the pid decides", () => {
  it("refuses a directory a live process holds, naming it", async () => {
    const dir = newDir();
    // The parent of this test runner is alive, is not this process, and started before now.
    await writeLock(dir, { pid: process.ppid, since: new Date().toISOString() });
    const error = await refusal(dir);
    expect(error).toBeInstanceOf(DataDirLockedError);
    expect((error as Error).message).toContain(`in use by process ${process.ppid}`);
    expect((error as Error).message).toContain(`on host ${hostname()}`);
  });

  it("refuses a second lock in the process that holds it", async () => {
    const dir = newDir();
    const release = await lockDataDir(dir, { timing: FAST });
    try {
      expect(await refusal(dir)).toBeInstanceOf(DataDirLockedError);
    } finally {
      await release();
    }
  });

  it("takes over a lock its own pid wrote before this process started (pid 1 again)", async () => {
    const dir = newDir();
    await writeLock(dir, { pid: process.pid }, { ageMs: 3_600_000 });
    const release = await lockDataDir(dir, { timing: FAST });
    expect((await newest(dir)).holder.since).not.toBe(undefined);
    await release();
  });

  it("takes over a lock whose pid now belongs to a process started after it was written", async () => {
    const dir = newDir();
    // The parent is alive but started long after 1970: the pid was reused.
    await writeLock(dir, { pid: process.ppid, since: new Date(1000).toISOString() });
    const result = await lockDataDir(dir, { timing: FAST }).catch((e: unknown) => e);
    if (process.platform === "linux") {
      expect(result).not.toBeInstanceOf(Error);
      await (result as () => Promise<void>)();
    }
  });

  it("takes over a lock whose process is gone, and one its writer died before filling", async () => {
    for (const content of [{ pid: 2 ** 22 + 1234 }, ""]) {
      const dir = newDir();
      await writeLock(dir, content, { ageMs: 10_000 });
      const release = await lockDataDir(dir, { timing: FAST });
      const taken = await newest(dir);
      expect(taken).toMatchObject({ n: 2, holder: { pid: process.pid } });
      await release();
      // The stale generation is removed by the one that replaced it.
      expect(await readdir(lockPath(dir))).toEqual(["holder-2.json"]);
    }
  });
});

describe("the data directory lock: another host or pid namespace, the lease decides", () => {
  it("takes over a crash lock written under another host name once its lease has run out", async () => {
    const dir = newDir();
    // The recorded pid is alive here: a pid from another container must not decide.
    await writeLock(dir, { ...ELSEWHERE, pid: process.ppid }, { ageMs: 3_600_000 });
    const release = await lockDataDir(dir, { timing: FAST });
    expect((await newest(dir)).holder).toMatchObject({ pid: process.pid, host: hostname() });
    await release();
  });

  it("takes over the same host name in another pid namespace (a container recreated with its name)", async () => {
    const dir = newDir();
    await writeLock(
      dir,
      { pid: process.ppid, host: hostname(), pid_scope: ELSEWHERE.pid_scope },
      { ageMs: 3_600_000 },
    );
    const release = await lockDataDir(dir, { timing: FAST });
    expect((await newest(dir)).holder.pid).toBe(process.pid);
    await release();
  });

  it("refuses a lock from elsewhere whose holder keeps renewing it, naming host and process", async () => {
    for (const holder of [
      { ...ELSEWHERE, pid: 1 },
      { pid: 1, host: hostname(), pid_scope: ELSEWHERE.pid_scope },
    ]) {
      const dir = newDir();
      const path = await writeLock(dir, holder);
      // The holder elsewhere touches its lock, as a live one does every renewal.
      const renewing = setInterval(() => {
        const now = new Date();
        utimes(path, now, now).catch(() => {});
      }, FAST.renewMs);
      try {
        const error = await refusal(dir);
        expect(error).toBeInstanceOf(DataDirLockedError);
        expect((error as Error).message).toContain(`in use by process 1 (`);
        expect((error as Error).message).toContain(`on host ${holder.host}`);
      } finally {
        clearInterval(renewing);
      }
    }
  });

  it("sees a live holder whose clock lags behind, though its lease looks run out here", async () => {
    const dir = newDir();
    const lag = FAST.leaseMs + 200;
    const behind = () => new Date(Date.now() - lag);
    const path = await writeLock(dir, { ...ELSEWHERE, pid: 1 }, { ageMs: lag });
    const renewing = setInterval(() => {
      utimes(path, behind(), behind()).catch(() => {});
    }, FAST.renewMs);
    try {
      expect(await refusal(dir)).toBeInstanceOf(DataDirLockedError);
    } finally {
      clearInterval(renewing);
    }
  });

  it("waits out a fresh lease nobody renews, then takes the lock over", async () => {
    const dir = newDir();
    await writeLock(dir, { ...ELSEWHERE, pid: 1 }, { ageMs: 100 });
    const release = await lockDataDir(dir, { timing: FAST });
    expect((await newest(dir)).holder.pid).toBe(process.pid);
    await release();
  });
});

describe("the data directory lock: holding and releasing", () => {
  it("renews its lease while held and marks it released on release", async () => {
    const dir = newDir();
    const release = await lockDataDir(dir, { timing: FAST });
    const file = join(lockPath(dir), "holder-1.json");
    const first = (await stat(file)).mtimeMs;
    await vi.waitFor(async () => expect((await stat(file)).mtimeMs).toBeGreaterThan(first), {
      timeout: 5_000,
    });
    await release();
    expect((await newest(dir)).holder.released_at).toEqual(expect.any(String));
    // Released: the next start takes it over at once, as the next generation.
    const again = await lockDataDir(dir, { timing: FAST });
    expect((await newest(dir)).n).toBe(2);
    await again();
  });

  it("tells its holder when the lock was taken over behind its back", async () => {
    const dir = newDir();
    const onLost = vi.fn();
    const release = await lockDataDir(dir, { timing: FAST, onLost });
    // What a process elsewhere does once it judged this one's lease run out.
    await writeLock(dir, { ...ELSEWHERE, pid: 1 }, { n: 2 });
    await vi.waitFor(() => expect(onLost).toHaveBeenCalledTimes(1), { timeout: 5_000 });
    await release();
    // The new holder's generation is left alone.
    expect((await newest(dir)).holder.host).toBe(ELSEWHERE.host);
  });

  it("retires the single-file lock of earlier versions: a dead one from another host, not a live one here", async () => {
    const stale = newDir();
    await mkdir(join(stale, ".."), { recursive: true });
    const legacy = { pid: 1, host: "old-container", command: "npm start" };
    await writeFile(
      lockPath(stale),
      JSON.stringify({ ...legacy, since: new Date(Date.now() - 3_600_000).toISOString() }),
    );
    const old = new Date(Date.now() - 3_600_000);
    await utimes(lockPath(stale), old, old);
    const release = await lockDataDir(stale, { timing: FAST });
    expect((await stat(lockPath(stale))).isDirectory()).toBe(true);
    await release();

    const live = newDir();
    await mkdir(join(live, ".."), { recursive: true });
    const since = new Date().toISOString();
    await writeFile(
      lockPath(live),
      JSON.stringify({ ...legacy, pid: process.ppid, host: hostname(), since }),
    );
    const error = await refusal(live);
    expect(error).toBeInstanceOf(DataDirLockedError);
    expect((error as Error).message).toContain(`in use by process ${process.ppid}`);
    expect((await stat(lockPath(live))).isFile()).toBe(true);
  });
});

/**
 * Processes that each try to take `dir`'s lock at the same moment (each loads the module, says
 * "ready", and starts on the "go" line all get at once), hold it until their input ends, and
 * report: exactly one may win.
 */
async function race(dir: string, contenders: number) {
  const module = resolve("src/runtime/node/data-dir-lock.ts");
  const code = `
    import { lockDataDir } from ${JSON.stringify(module)};
    import { createInterface } from "node:readline";
    const lines = createInterface({ input: process.stdin });
    let release;
    lines.on("close", async () => { await release?.(); process.exit(0); });
    lines.once("line", async () => {
      try {
        release = await lockDataDir(${JSON.stringify(dir)}, { timing: ${JSON.stringify(FAST)} });
        console.log("won");
      } catch (error) {
        console.log(error.name === "DataDirLockedError" ? "refused" : "failed: " + error.message);
      }
    });
    console.log("ready");`;
  const children = Array.from({ length: contenders }, () =>
    spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
      stdio: ["pipe", "pipe", "inherit"],
    }),
  );
  const lines = children.map((child) => {
    const queue: string[] = [];
    const waiting: ((line: string) => void)[] = [];
    let buffered = "";
    child.stdout.on("data", (chunk) => {
      buffered += chunk;
      for (let i = buffered.indexOf("\n"); i >= 0; i = buffered.indexOf("\n")) {
        const line = buffered.slice(0, i).trim();
        buffered = buffered.slice(i + 1);
        const next = waiting.shift();
        if (next) next(line);
        else queue.push(line);
      }
    });
    child.once("exit", () => {
      for (const next of waiting.splice(0)) next("exited");
    });
    return () =>
      new Promise<string>((done) => {
        const line = queue.shift();
        if (line !== undefined) done(line);
        else waiting.push(done);
      });
  });
  expect(await Promise.all(lines.map((next) => next()))).toEqual(children.map(() => "ready"));
  for (const child of children) child.stdin.write("go\n");
  const outcomes = await Promise.all(lines.map((next) => next()));
  await Promise.all(
    children.map(
      (child) =>
        new Promise((done) => {
          if (child.exitCode !== null) return done(null);
          child.once("exit", done);
          child.stdin.end();
        }),
    ),
  );
  return outcomes.sort();
}

describe("the data directory lock: racing processes", () => {
  it("lets exactly one of many attempts interleaved in one process take over a stale lock", async () => {
    // Every file-system step of each attempt interleaves with the others' here; a later attempt
    // finds the winner's record (this pid, written since this process started) alive.
    for (const stale of [null, { ...ELSEWHERE, pid: 1 }]) {
      const dir = newDir();
      if (stale) await writeLock(dir, stale, { ageMs: 3_600_000 });
      const attempts = await Promise.allSettled(
        Array.from({ length: 12 }, () => lockDataDir(dir, { timing: FAST })),
      );
      const won = attempts.filter((a) => a.status === "fulfilled");
      const refused = attempts.filter(
        (a) => a.status === "rejected" && a.reason instanceof DataDirLockedError,
      );
      expect([won.length, refused.length]).toEqual([1, 11]);
      await (won[0] as PromiseFulfilledResult<() => Promise<void>>).value();
    }
  });

  it("lets exactly one of several processes starting at once take a new directory", async () => {
    const outcomes = await race(newDir(), 5);
    expect(outcomes).toEqual(["refused", "refused", "refused", "refused", "won"]);
  }, 60_000);

  it("lets exactly one of several processes take over one stale lock from another host", async () => {
    const dir = newDir();
    await writeLock(dir, { ...ELSEWHERE, pid: 1 }, { ageMs: 3_600_000 });
    const outcomes = await race(dir, 5);
    expect(outcomes).toEqual(["refused", "refused", "refused", "refused", "won"]);
  }, 60_000);
});
