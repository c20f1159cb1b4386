import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DataDirLockedError, lockDataDir, lockPath } from "../../src/runtime/node/data-dir-lock";

const root = await mkdtemp(join(tmpdir(), "ta-lockunit-"));
afterAll(() => rm(root, { recursive: true, force: true }));

const holder = (pid: number, since = new Date().toISOString()) =>
  JSON.stringify({ pid, host: hostname(), command: "npm start", since });

describe("the data directory lock", () => {
  it("refuses a directory a live process holds, naming it", async () => {
    const dir = join(root, "held");
    // The parent of this test runner is alive, is not this process, and started before now.
    await writeFile(lockPath(dir), holder(process.ppid));
    const error = await lockDataDir(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataDirLockedError);
    expect((error as Error).message).toContain(`in use by process ${process.ppid}`);
  });

  it("takes over a lock naming its own pid (a container restarted with the same pid 1)", async () => {
    const dir = join(root, "own-pid");
    await writeFile(lockPath(dir), holder(process.pid));
    const release = await lockDataDir(dir);
    expect(JSON.parse(await readFile(lockPath(dir), "utf8")).since).not.toBe(undefined);
    await release();
    await expect(readFile(lockPath(dir), "utf8")).rejects.toThrow();
  });

  it("takes over a lock whose pid now belongs to a process started after it was written", async () => {
    const dir = join(root, "reused");
    // The parent is alive but started long after 1970: the pid was reused.
    await writeFile(lockPath(dir), holder(process.ppid, new Date(1000).toISOString()));
    const error = await lockDataDir(dir).catch((e: unknown) => e);
    if (process.platform === "linux") {
      expect(error).not.toBeInstanceOf(Error);
      await (error as () => Promise<void>)();
    }
  });

  it("takes over a lock whose process is gone, and an empty one", async () => {
    for (const content of [holder(2 ** 22 + 1234), ""]) {
      const dir = join(root, `gone-${content.length}`);
      await writeFile(lockPath(dir), content);
      const release = await lockDataDir(dir);
      expect(JSON.parse(await readFile(lockPath(dir), "utf8")).pid).toBe(process.pid);
      await release();
    }
  });
});
