import { createServer, type RequestListener, type ServerResponse } from "node:http";
import pg from "pg";

// What the database-backed ceilings share: a pg Pool of the app's size, the JSON writer with the
// app's content type, the app's ISO date form, and a SIGTERM that drains and exits 0.

const contentType = process.env.CEILING_CONTENT_TYPE || "application/json";

export const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE || 10),
  idleTimeoutMillis: 30_000,
});
pool.on("error", () => {});

export const iso = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString();

export function send(res: ServerResponse, status: number, payload: unknown) {
  const body = Buffer.from(JSON.stringify(payload));
  res.writeHead(status, { "content-type": contentType, "content-length": body.length });
  res.end(body);
}

/** Listens on PORT and stops cleanly on SIGTERM (the bench checks the exit code). */
export function serve(handler: RequestListener) {
  const server = createServer(handler);
  server.listen(Number(process.env.PORT), "0.0.0.0");
  process.on("SIGTERM", () => {
    server.close(() => {
      void pool.end().finally(() => process.exit(0));
    });
    server.closeAllConnections();
  });
}
