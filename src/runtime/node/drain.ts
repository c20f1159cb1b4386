import type { Server } from "node:http";
import { Server as NetServer, type Socket } from "node:net";

/** What the request listener asks while answering (createNodeListener). */
export interface DrainState {
  /** True once the server is stopping: every response from then on says `Connection: close`. */
  readonly draining: boolean;
}

export interface HttpDrain extends DrainState {
  /**
   * Stops accepting and waits for every connection to close, until `deadlineMs` (epoch ms);
   * then destroys the ones left. Resolves with how many were cut that way.
   */
  drain(deadlineMs: number): Promise<{ cut: number }>;
}

/**
 * How the server lets its connections go when it stops (docs/adr/0116-restarts-lose-nothing.md).
 *
 * A connection in the middle of a request is answered, with `Connection: close`, and closes
 * after that answer. A kept-alive connection with no request at that moment is NOT closed at
 * once (what Node's `server.close()` does): the client may have written its next request
 * already, and closing under it resets a request that was sent, the very drop a restart must
 * not cause. It stays open for the keep-alive timeout the server announced on its last answer
 * (`Keep-Alive: timeout=5`): a request arriving meanwhile is served (and closes it), and clients
 * that honour the hint (Node's agent, undici) drop the connection a second before the server
 * would. A connection that never carried a request gets the same timeout from now. An event
 * stream ended by the stop (src/http/live-stream.ts, endLiveStreams) closes its connection as
 * it ends.
 */
export function watchConnections(server: Server): HttpDrain {
  const open = new Set<Socket>();
  const used = new WeakSet<Socket>();
  let draining = false;

  server.on("connection", (socket: Socket) => {
    open.add(socket);
    socket.once("close", () => open.delete(socket));
  });
  server.on("request", (req, res) => {
    const socket = req.socket;
    used.add(socket);
    // An event stream that ends during the drain (ended by the stop: a `reconnect` event with
    // `retry:`) has its connection closed at once instead of kept for the keep-alive timeout:
    // its client reconnects only after the retry delay, so it has nothing in flight on it.
    res.once("finish", () => {
      if (draining && isEventStream(res.getHeader("content-type"))) socket.end();
    });
  });

  return {
    get draining() {
      return draining;
    },
    async drain(deadlineMs) {
      draining = true;
      const closed = new Promise<void>((resolve) => server.once("close", () => resolve()));
      // net.Server's close: stops listening without http.Server's closeIdleConnections().
      NetServer.prototype.close.call(server);
      for (const socket of open) {
        if (!used.has(socket)) socket.setTimeout(server.keepAliveTimeout);
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<"late">((resolve) => {
        timer = setTimeout(() => resolve("late"), Math.max(0, deadlineMs - Date.now()));
      });
      const outcome = await Promise.race([closed, late]);
      clearTimeout(timer);
      if (outcome !== "late") return { cut: 0 };
      const cut = open.size;
      for (const socket of open) socket.destroy();
      await closed;
      return { cut };
    },
  };
}

const isEventStream = (type: unknown) =>
  typeof type === "string" && /^text\/event-stream/i.test(type);
