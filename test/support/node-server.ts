import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(),
      );
    });
  });
}

export interface RunningServer {
  url: string;
  process: ChildProcess;
  output(): string;
  stop(): Promise<number | null>;
}

/** `npm start`'s command: the server's bundle, rebuilt first when a source changed. */
const START_SCRIPT = "scripts/start.mjs";

/** Node's arguments for an entry: TypeScript through tsx, the start script as it is. */
const nodeArgs = (script: string) =>
  script.endsWith(".mjs") ? [script] : ["--import", "tsx", script];

/**
 * Starts the real `npm start` entry and waits for /health (up to `readyMs`: a bound against a
 * hang, raised by suites that start servers beside heavy work).
 */
export async function startNodeServer(
  env: Record<string, string>,
  readyMs = 30_000,
): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, nodeArgs(START_SCRIPT), {
    env: {
      ...process.env,
      DATABASE_URL: "",
      REDIS_URL: "",
      LOG_LEVEL: "warn",
      ...env,
      PORT: String(port),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early: ${output}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server not ready in ${readyMs / 1000} s: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    process: child,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once("exit", (code) => resolve(code));
        child.kill("SIGTERM");
      }),
  };
}

/** Runs an entry file (the server by default, or an npm script's) to its end. */
export function runToExit(
  env: Record<string, string>,
  script = START_SCRIPT,
  args: string[] = [],
  timeoutMs = 20_000,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeArgs(script), ...args], {
      env: { ...process.env, DATABASE_URL: "", REDIS_URL: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout?.on("data", (chunk) => (output += chunk));
    child.stderr?.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
