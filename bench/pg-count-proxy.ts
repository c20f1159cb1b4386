import { connect, createServer, type Server, type Socket } from "node:net";

/**
 * A TCP proxy in front of PostgreSQL that counts protocol messages, to tell how many database
 * round trips a request costs without pg_stat_statements (it needs shared_preload_libraries).
 *
 * Client -> server: 'Q' simple query, 'P' Parse, 'B' Bind, 'E' Execute, 'S' Sync.
 * Server -> client: 'Z' ReadyForQuery, sent once per 'Q' and once per 'S'.
 *
 * A round trip is one wait for ReadyForQuery: the client pipelines Parse/Bind/Describe/Execute
 * and one Sync, then waits. So round trips = Q + S (cross-checked with the server's Z count),
 * and statements = Q + E.
 */
export interface PgCounts {
  Q: number;
  P: number;
  B: number;
  E: number;
  S: number;
  Z: number;
  connections: number;
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;

/** Walks framed messages across chunk boundaries, calling `onType` for each message type. */
class FrameCounter {
  private buffer: Buffer = Buffer.alloc(0);
  /** Untyped messages still expected first (startup/SSL request on the client side). */
  private untyped: boolean;
  /** One raw byte expected (the server's answer to SSLRequest/GSSENCRequest). */
  rawBytes = 0;

  constructor(
    untypedFirst: boolean,
    private readonly onType: (type: string) => void,
    private readonly onUntyped?: (code: number) => void,
  ) {
    this.untyped = untypedFirst;
  }

  push(chunk: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (;;) {
      if (this.rawBytes > 0) {
        if (this.buffer.length < 1) return;
        this.buffer = this.buffer.subarray(1);
        this.rawBytes--;
        continue;
      }
      if (this.untyped) {
        if (this.buffer.length < 8) return;
        const length = this.buffer.readInt32BE(0);
        if (this.buffer.length < length) return;
        const code = this.buffer.readInt32BE(4);
        this.buffer = this.buffer.subarray(length);
        // After an SSL/GSS request the client sends another untyped (startup) message.
        if (code !== SSL_REQUEST && code !== GSSENC_REQUEST) this.untyped = false;
        this.onUntyped?.(code);
        continue;
      }
      if (this.buffer.length < 5) return;
      const length = this.buffer.readInt32BE(1);
      if (this.buffer.length < 1 + length) return;
      this.onType(String.fromCharCode(this.buffer[0]!));
      this.buffer = this.buffer.subarray(1 + length);
    }
  }
}

export interface CountingProxy {
  port: number;
  counts: () => PgCounts;
  close: () => Promise<void>;
}

export async function startCountingProxy(
  targetHost: string,
  targetPort: number,
): Promise<CountingProxy> {
  const counts: PgCounts = { Q: 0, P: 0, B: 0, E: 0, S: 0, Z: 0, connections: 0 };
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    counts.connections++;
    const upstream = connect(targetPort, targetHost);
    sockets.add(client);
    sockets.add(upstream);
    const fromServer = new FrameCounter(false, (type) => {
      if (type === "Z") counts.Z++;
    });
    const fromClient = new FrameCounter(
      true,
      (type) => {
        if (type === "Q" || type === "P" || type === "B" || type === "E" || type === "S") {
          counts[type]++;
        }
      },
      (code) => {
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) fromServer.rawBytes++;
      },
    );
    client.on("data", (chunk: Buffer) => {
      fromClient.push(chunk);
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      fromServer.push(chunk);
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("close", end);
    upstream.on("close", end);
    client.on("error", end);
    upstream.on("error", end);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    counts: () => ({ ...counts }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
