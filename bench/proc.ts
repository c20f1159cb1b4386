import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { configSchema } from "../src/config";

/** Repository root: bench/ lives directly under it. */
export const ROOT = new URL("..", import.meta.url).pathname;

export interface Child {
  name: string;
  proc: ChildProcess;
  port: number;
  /** Last lines of stdout/stderr, for error messages. */
  tail: () => string;
  exited: Promise<number | null>;
  stop: () => Promise<void>;
}

const children = new Set<Child>();

/** Kills every child still running; synchronous so it also works from an `exit` handler. */
export function killAllChildrenSync(): void {
  for (const child of children) {
    if (child.proc.exitCode === null && child.proc.signalCode === null) {
      try {
        child.proc.kill("SIGKILL");
      } catch {
        // already gone
      }
    }
  }
  children.clear();
}

/** Stops (SIGTERM, then SIGKILL after 5 s) every child still running. */
export async function stopAllChildren(): Promise<void> {
  await Promise.allSettled([...children].map((child) => child.stop()));
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `node --import tsx <script>` from the repository root, or `node <script>` for a plain
 * .mjs (the app runs as `npm start` runs it: scripts/start.mjs, the server's bundle). One Node
 * process each, same flags; the loader only changes how modules load, not how requests run. `ipc` opens a
 * message channel (child.proc.send / process.send) for workers that serve no port (port 0).
 */
export function startNode(
  name: string,
  script: string,
  env: NodeJS.ProcessEnv,
  port: number,
  { ipc = false } = {},
): Child {
  const args = script.endsWith(".mjs") ? [script] : ["--import", "tsx", script];
  const proc = spawn(process.execPath, args, {
    cwd: ROOT,
    env,
    stdio: ipc ? ["ignore", "pipe", "pipe", "ipc"] : ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (line.trim()) lines.push(line);
    }
    if (lines.length > 40) lines.splice(0, lines.length - 40);
  };
  proc.stdout?.on("data", keep);
  proc.stderr?.on("data", keep);
  const exited = new Promise<number | null>((resolve) => {
    proc.once("exit", (code) => resolve(code));
  });
  const child: Child = {
    name,
    proc,
    port,
    tail: () => lines.join("\n"),
    exited,
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill("SIGTERM");
        const done = await Promise.race([exited.then(() => true), sleep(5000).then(() => false)]);
        if (!done) {
          proc.kill("SIGKILL");
          await exited;
        }
      }
      children.delete(child);
    },
  };
  children.add(child);
  return child;
}

/**
 * Polls `GET <path>` (default /health) every `intervalMs` until it answers `status` (default
 * 200); returns the milliseconds from `since` (performance.now() taken before spawning).
 */
export async function waitReady(
  child: Child,
  since: number,
  { timeoutMs = 60_000, intervalMs = 25, path = "/health", status = 200 } = {},
): Promise<number> {
  const deadline = since + timeoutMs;
  let exitCode: number | null | undefined;
  void child.exited.then((code) => {
    exitCode = code;
  });
  while (performance.now() < deadline) {
    if (exitCode !== undefined) {
      throw new Error(
        `${child.name} exited with ${exitCode} before it was ready:\n${child.tail()}`,
      );
    }
    try {
      const res = await fetch(`http://127.0.0.1:${child.port}${path}`, {
        signal: AbortSignal.timeout(1000),
      });
      await res.arrayBuffer();
      if (res.status === status) return performance.now() - since;
    } catch {
      // not listening yet
    }
    await sleep(intervalMs);
  }
  throw new Error(`${child.name} not ready after ${timeoutMs} ms:\n${child.tail()}`);
}

/** The parent's environment without any setting the app reads, so only what we pass applies. */
export function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(configSchema.shape)) delete env[key];
  delete env.NODE_OPTIONS;
  return env;
}

/** A process's resident memory now and its peak (VmHWM), from /proc/<pid>/status, in kB. */
export function readProcMemory(pid: number): { rssKb: number; hwmKb: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]);
  return { rssKb: kb("VmRSS"), hwmKb: kb("VmHWM") };
}

/** Resets VmHWM to the current RSS (writing 5 to clear_refs, Linux >= 4.0); false if refused. */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}
