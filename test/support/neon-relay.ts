import { createConnection, type Socket } from "node:net";
import { fileURLToPath } from "node:url";
import { type RawData, type WebSocket, WebSocketServer } from "ws";

/**
 * A minimal wsproxy for the Neon serverless driver, so a Worker (workerd) can reach a plain
 * PostgreSQL over WebSocket: the driver opens `ws://<proxy>?address=<host>:<port>` (see
 * openNeonDatabase's wsProxy) and, with `useSecureWebSocket`, `pipelineTLS` and
 * `pipelineConnect` off, sends plain Postgres protocol bytes as binary frames. Each frame goes to
 * a TCP socket to that address and every TCP chunk comes back as one binary frame.
 *
 * Test and local-development tool: listens on 127.0.0.1 only, and forwards only to the allowed
 * targets (127.0.0.1:5432 by default), never to whatever address a client names.
 */

export interface NeonRelayOptions {
  /** Port to listen on (127.0.0.1); 0 picks a free one. */
  port?: number;
  /** `host:port` targets a client may ask for. */
  allowedTargets?: readonly string[];
}

export interface NeonRelay {
  /** Value for NEON_WS_PROXY: `127.0.0.1:<port>` (the driver adds the scheme and query). */
  proxy: string;
  port: number;
  /** Connections relayed so far (each is one Postgres session). */
  connections(): number;
  close(): Promise<void>;
}

const DEFAULT_RELAY_TARGETS = ["127.0.0.1:5432"] as const;

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

function relay(ws: WebSocket, tcp: Socket): void {
  // Frames that arrive before the TCP connection is up are queued by the socket itself.
  ws.on("message", (data, isBinary) => {
    if (!isBinary) {
      ws.close(1003, "binary frames only");
      return;
    }
    tcp.write(toBuffer(data));
  });
  tcp.on("data", (chunk) => {
    if (ws.readyState === ws.OPEN) ws.send(chunk, { binary: true });
  });
  tcp.on("error", () => ws.terminate());
  tcp.on("close", () => {
    if (ws.readyState === ws.OPEN) ws.close(1000);
  });
  ws.on("close", () => tcp.destroy());
  ws.on("error", () => tcp.destroy());
}

export async function startNeonRelay(options: NeonRelayOptions = {}): Promise<NeonRelay> {
  const allowed = new Set(options.allowedTargets ?? DEFAULT_RELAY_TARGETS);
  let count = 0;
  const wss = new WebSocketServer({
    host: "127.0.0.1",
    port: options.port ?? 0,
    perMessageDeflate: false,
    verifyClient: ({ req }, done) => {
      const address = new URL(req.url ?? "/", "http://relay").searchParams.get("address");
      if (address && allowed.has(address)) done(true);
      else done(false, 403, "target not allowed");
    },
  });
  wss.on("connection", (ws, req) => {
    const address = new URL(req.url ?? "/", "http://relay").searchParams.get("address") ?? "";
    const index = address.lastIndexOf(":");
    const host = address.slice(0, index);
    const port = Number(address.slice(index + 1));
    count++;
    relay(ws, createConnection({ host, port, noDelay: true }));
  });
  await new Promise<void>((resolve, reject) => {
    wss.once("listening", resolve);
    wss.once("error", reject);
  });
  const { port } = wss.address() as { port: number };
  return {
    proxy: `127.0.0.1:${port}`,
    port,
    connections: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolve());
      }),
  };
}

// `npx tsx test/support/neon-relay.ts [port]`: a relay for `npm run dev:worker` against the local
// PostgreSQL (NEON_WS_PROXY=127.0.0.1:<port> in .dev.vars).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const relayInstance = await startNeonRelay({ port: Number(process.argv[2] ?? 5433) });
  console.log(`Neon relay on ws://${relayInstance.proxy} -> ${DEFAULT_RELAY_TARGETS.join(", ")}`);
}
