import pg from "pg";
import { readFile } from "node:fs/promises";
import { measureBilling } from "./billing";
const admin = "postgres://postgres@127.0.0.1:5432/test";
const name = `bench_tmp_${process.pid}`;
const q = async (url: string, s: string) => { const c = new pg.Client({ connectionString: url }); await c.connect(); try { return await c.query(s); } finally { await c.end(); } };
const dbUrl = `postgres://postgres@127.0.0.1:5432/${name}`;
await q(admin, `create database "${name}"`);
try {
  for (const f of ["0000_init.sql", "0001_credit_lots.sql", "0002_credit_functions.sql"]) {
    const text = await readFile(`migrations/${f}`, "utf8");
    for (const stmt of text.split("--> statement-breakpoint")) if (stmt.trim()) await q(dbUrl, stmt);
  }
  await q(dbUrl, `insert into system_config (key, value) values ('credits.costs', '{"translate":1}')`);
  await q(dbUrl, `insert into users (email, referral_code) select 'b'||i||'@example.com', 'R'||i from generate_series(1,200) i`);
  const r = await measureBilling({ benchDbUrl: dbUrl, pgbenchDbUrl: `postgres://postgres@127.0.0.1:5432/${name}_pgb`,
    createPgbenchDb: async () => { await q(admin, `create database "${name}_pgb"`); },
    dropPgbenchDb: async () => { await q(admin, `drop database if exists "${name}_pgb" with (force)`); },
    env: { ...process.env }, log: (l) => console.error(l) });
  const { runs, warmup, pgbenchRuns, ...rest } = r; console.log(JSON.stringify(rest, null, 1));
} finally {
  await q(admin, `drop database if exists "${name}_pgb" with (force)`);
  await q(admin, `drop database if exists "${name}" with (force)`);
}
process.exit(0);
