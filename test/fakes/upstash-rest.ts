/**
 * A fake Upstash Redis REST server on 127.0.0.1 that relays every command to a real Redis.
 *
 * Wire protocol as @upstash/redis speaks it (node_modules/@upstash/redis, HttpClient):
 * - `POST /` with a JSON array body `["EVALSHA", sha, 1, key, ...]`, answered
 *   `{"result": ...}` (200) or `{"error": "..."}` (400 for a Redis error);
 * - `POST /pipeline` with an array of commands, answered with an array of
 *   `{"result"}` / `{"error"}` items (200);
 * - `Authorization: Bearer <token>`, otherwise 401 `{"error": "Unauthorized"}`;
 * - `Upstash-Encoding: base64` (the client's default) asks for every string in a result to be
 *   base64 encoded; numbers and nulls stay as they are.
 * Redis errors keep their text, so `NOSCRIPT ...` makes @upstash/ratelimit fall back from
 * EVALSHA to EVAL as it does against Upstash.
 *
 * Upstash-only Lua: @upstash/ratelimit's scripts start with `#!lua flags=allow-key-locking`,
 * a flag open-source Redis rejects. The fake strips Upstash-only flags before relaying and maps
 * the client's SHA-1 (of the original script) to the SHA-1 Redis knows, so EVALSHA / SCRIPT
 * LOAD / SCRIPT EXISTS behave as on Upstash.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";

export interface FakeUpstashOptions {
  redisUrl: string;
  token?: string;
  /** Accept requests and never answer (a store that hangs). */
  hang?: boolean;
}

export interface FakeUpstash {
  url: string;
  token: string;
  /** Every command received, in order (upper-cased command name first). */
  commands: string[][];
  close(): Promise<void>;
}

type Reply = { result: unknown } | { error: string };

function encodeBase64(value: unknown): unknown {
  if (typeof value === "string") return Buffer.from(value, "utf8").toString("base64");
  if (Array.isArray(value)) return value.map(encodeBase64);
  return value;
}

const UPSTASH_ONLY_SCRIPT_FLAGS = new Set(["allow-key-locking"]);

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

/** Drops Upstash-only flags from a `#!lua flags=...` shebang line. */
function portableScript(script: string): string {
  const match = /^#!lua(?:[ \t]+flags=([^\s]*))?[^\n]*/.exec(script);
  if (!match) return script;
  const flags = (match[1] ?? "")
    .split(",")
    .filter((flag) => flag && !UPSTASH_ONLY_SCRIPT_FLAGS.has(flag));
  const shebang = flags.length > 0 ? `#!lua flags=${flags.join(",")}` : "#!lua";
  return shebang + script.slice(match[0].length);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

export async function startFakeUpstash(opts: FakeUpstashOptions): Promise<FakeUpstash> {
  const token = opts.token ?? "fake-upstash-token";
  const redis = new Redis(opts.redisUrl, { maxRetriesPerRequest: 1 });
  const commands: string[][] = [];
  /** SHA-1 of a script as the client sent it -> SHA-1 of the script Redis was given. */
  const shaMap = new Map<string, string>();

  function registerScript(script: string): string {
    const portable = portableScript(script);
    shaMap.set(sha1(script), sha1(portable));
    return portable;
  }

  /** Rewrites script commands so open-source Redis accepts them (see the file comment). */
  function relayArgs(name: string, args: string[]): string[] {
    const upper = name.toUpperCase();
    const [first, ...rest] = args;
    if (first === undefined) return args;
    if (upper === "EVAL" || upper === "EVAL_RO") return [registerScript(first), ...rest];
    if (upper === "EVALSHA" || upper === "EVALSHA_RO") {
      return [shaMap.get(first.toLowerCase()) ?? first, ...rest];
    }
    if (upper === "SCRIPT" && first.toUpperCase() === "LOAD" && rest[0] !== undefined) {
      return [first, registerScript(rest[0])];
    }
    if (upper === "SCRIPT" && first.toUpperCase() === "EXISTS") {
      return [first, ...rest.map((sha) => shaMap.get(sha.toLowerCase()) ?? sha)];
    }
    return args;
  }

  async function run(command: unknown, base64: boolean): Promise<Reply> {
    if (!Array.isArray(command) || command.length === 0) {
      return { error: "ERR command must be a non-empty array" };
    }
    const [name, ...args] = command.map((part) =>
      typeof part === "string" ? part : JSON.stringify(part),
    ) as [string, ...string[]];
    commands.push([name.toUpperCase(), ...args]);
    try {
      let result = await redis.call(name, ...relayArgs(name, args));
      if (name.toUpperCase() === "SCRIPT" && args[0]?.toUpperCase() === "LOAD" && args[1]) {
        result = sha1(args[1]); // the SHA-1 the client computed, as Upstash answers
      }
      return { result: base64 ? encodeBase64(result) : result };
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err) };
    }
  }

  const server = createServer((req, res) => {
    if (opts.hang) {
      req.resume();
      return; // never answered; close() drops the connection
    }
    void (async () => {
      if (req.method !== "POST") return send(res, 405, { error: "Method not allowed" });
      if (req.headers.authorization !== `Bearer ${token}`) {
        return send(res, 401, { error: "Unauthorized" });
      }
      let body: unknown;
      try {
        body = JSON.parse(await readBody(req));
      } catch {
        return send(res, 400, { error: "ERR failed to parse command" });
      }
      const base64 = String(req.headers["upstash-encoding"] ?? "").toLowerCase() === "base64";
      const path = (req.url ?? "/").split("?")[0];
      if (path === "/") {
        const reply = await run(body, base64);
        return send(res, "error" in reply ? 400 : 200, reply);
      }
      if (path === "/pipeline") {
        if (!Array.isArray(body)) return send(res, 400, { error: "ERR pipeline must be an array" });
        const replies: Reply[] = [];
        for (const command of body) replies.push(await run(command, base64));
        return send(res, 200, replies);
      }
      return send(res, 404, { error: `ERR unsupported path ${path}` });
    })().catch(() => {
      if (!res.headersSent) send(res, 500, { error: "ERR fake server failure" });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    commands,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      redis.disconnect();
    },
  };
}
