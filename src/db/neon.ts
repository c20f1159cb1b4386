import { neonConfig, Pool } from "@neondatabase/serverless";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/neon-serverless";
import type { Database, Db } from "./client";
import * as schema from "./schema";

export interface NeonOptions {
  /** Route the driver's WebSocket through a relay (tests and self-hosted Postgres). */
  wsProxy?: string;
  secureWebSocket?: boolean;
}

/** Workers: Postgres over the Neon serverless driver (WebSocket, supports transactions). */
export function openNeonDatabase(url: string, options: NeonOptions = {}): Database {
  if (options.wsProxy) {
    const proxy = options.wsProxy;
    neonConfig.wsProxy = (host, port) => `${proxy}?address=${host}:${port}`;
    neonConfig.useSecureWebSocket = options.secureWebSocket ?? false;
    neonConfig.pipelineTLS = false;
    neonConfig.pipelineConnect = false;
  }
  const pool = new Pool({ connectionString: url });
  const db = drizzle({ client: pool, schema }) as unknown as Db;
  return {
    kind: "neon",
    db,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => pool.end(),
  };
}
