import { writeFileSync } from "node:fs";
import { join } from "node:path";
import ExcelJS from "exceljs";
import type pg from "pg";
import { pgbenchScript } from "./billing";
import { captureListStatement, listLiteralSql } from "./list-statement";
import { median } from "./load";
import { captureMeStatement, meStatementFor } from "./me-statement";
import { readProcMemory, resetPeakRss } from "./proc";

// ---------------------------------------------------------------------------------------------
// Customer list: 10,000 customers seeded with SQL for one bench user.

export const LIST_CUSTOMERS = 10_000;
export const LIST_SIZE = 20;
const LIST_STATUS = "negotiating";
/** Put in front of the company name of every 33rd customer (303 of 10,000), nowhere else. */
const LIST_QUERY = "zenith";
export const LIST_PATH = `/api/v1/customers?size=${LIST_SIZE}&status=${LIST_STATUS}&q=${LIST_QUERY}`;

export interface SeedResult {
  userId: string;
  customers: number;
  /** Customers the search alone matches. */
  searchMatches: number;
  /** Customers the search and the status filter match (the list's `total`). */
  listMatches: number;
  seedMs: number;
}

/**
 * One INSERT ... SELECT over generate_series: companies, contacts, lower-case e-mails,
 * countries, every status, some tags, values, created_at spread over the past year. Then
 * VACUUM ANALYZE, as autovacuum does after that many inserts (PostgreSQL 13+ vacuums on
 * inserts too): the steady state a seller's list runs in. Right after a bulk insert, before
 * autovacuum, the search index's pending list (bounded to 256 kB) is read by every search.
 */
/**
 * The seeded customer's company (the search term in every 33rd), contact, e-mail, phone,
 * country, status and tags from its ordinal `i`: the columns `company` to `tags` of an
 * `insert into customers ... select ... from generate_series(...) as i`.
 */
export const SEEDED_CUSTOMER_IDENTITY = `case when i % 33 = 5 then 'Zenith ' else '' end
         || (array['Pacific','Golden','Northern','Eastern','Silver','Bright','Royal','United'])[1 + i % 8]
         || ' ' || (array['Trading','Imports','Textiles','Machinery','Foods','Electronics','Logistics'])[1 + (i / 8) % 7]
         || ' ' || i,
       (array['Anna','Carlos','Li','Priya','Omar','Sofia','Jan','Amara','Diego','Mei'])[1 + i % 10]
         || ' ' || (array['Smith','Garcia','Wang','Patel','Haddad','Rossi','Kowalski','Okafor','Silva'])[1 + (i / 10) % 9],
       'buyer' || i || '@' || (array['example.com','example.org','example.net'])[1 + i % 3],
       '+1 555 ' || lpad((i % 10000)::text, 4, '0'),
       (array['US','Germany','Brazil','India','Vietnam','Mexico','Nigeria','UAE','Poland','Chile'])[1 + (i / 3) % 10],
       (array['new','contacted','negotiating','quoted','won','lost','dormant'])[1 + i % 7],
       case i % 4 when 0 then '["vip"]' when 1 then '["fair-2026","textiles"]' else '[]' end::jsonb`;

export async function seedCustomers(client: pg.Client, userId: string): Promise<SeedResult> {
  const started = performance.now();
  await client.query(
    `insert into customers (user_id, company, contact_name, email, phone, country, status, tags,
       estimated_value, estimated_currency, notes, created_at, updated_at)
     select $1::uuid,
       ${SEEDED_CUSTOMER_IDENTITY},
       (i * 7919) % 5000000,
       'USD',
       case when i % 5 = 0 then 'Met at the trade fair' end,
       ts, ts
     from generate_series(1, $2::int) as i,
       lateral (select now() - make_interval(secs => i * 3153.6 + (i * 7919) % 3600) as ts) t`,
    [userId, LIST_CUSTOMERS],
  );
  await client.query("vacuum analyze customers");
  const seedMs = performance.now() - started;
  const { rows } = await client.query<{ customers: number; search: number; list: number }>(
    `select count(*)::int as customers,
       count(*) filter (where lower(company) like $2 or lower(contact_name) like $2
         or email like $2)::int as search,
       count(*) filter (where status = $3 and (lower(company) like $2
         or lower(contact_name) like $2 or email like $2))::int as list
     from customers where user_id = $1`,
    [userId, `%${LIST_QUERY}%`, LIST_STATUS],
  );
  const row = rows[0]!;
  return {
    userId,
    customers: row.customers,
    searchMatches: row.search,
    listMatches: row.list,
    seedMs,
  };
}

// ---------------------------------------------------------------------------------------------
// The database's own ceiling for the list: the statement the app sends for LIST_PATH, and the
// /me primary-key read, each run by pgbench alone as a prepared statement (as the app runs
// them), so the list's ratio to /me can be read against what PostgreSQL itself allows.

export interface StatementCeilings {
  clients: number;
  listTps: number;
  meTps: number;
  runs: { list: number; me: number }[];
}

export async function measureStatementCeilings(options: {
  url: string;
  userId: string;
  dir: string;
  clients: number;
  threads: number;
  durationS: number;
  runs: number;
}): Promise<StatementCeilings> {
  const files = { list: join(options.dir, "list.sql"), me: join(options.dir, "me.sql") };
  const list = await captureListStatement(LIST_PATH);
  writeFileSync(files.list, `${listLiteralSql(list, options.userId)}\n`);
  const me = await captureMeStatement();
  writeFileSync(files.me, `${meStatementFor(me, options.userId, new Date().toISOString())}\n`);
  const run = async (file: string, seconds: number) =>
    (await pgbenchScript(options.url, file, { ...options, seconds })).tps;
  await run(files.list, 1);
  await run(files.me, 1);
  const runs: { list: number; me: number }[] = [];
  for (let i = 0; i < options.runs; i++) {
    runs.push({
      list: await run(files.list, options.durationS),
      me: await run(files.me, options.durationS),
    });
  }
  return {
    clients: options.clients,
    listTps: median(runs.map((r) => r.list)),
    meTps: median(runs.map((r) => r.me)),
    runs,
  };
}

// ---------------------------------------------------------------------------------------------
// Import: a 5,000-row .xlsx posted to /api/v1/customers/import.

export const IMPORT_ROWS = 5_000;
export const IMPORT_RUNS = 3;
const IMPORT_HEADER = ["company", "contact", "email", "phone", "country", "status", "notes"];
const STATUSES = ["new", "contacted", "negotiating", "quoted", "won", "lost", "dormant"];
const COUNTRIES = ["US", "Germany", "Brazil", "India", "Vietnam", "Mexico", "Nigeria", "UAE"];

/** A workbook like one a seller exports from another CRM; `tag` keeps the e-mails unique. */
export async function buildImportXlsx(tag: string, rows = IMPORT_ROWS): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Customers");
  sheet.addRow(IMPORT_HEADER);
  for (let i = 1; i <= rows; i++) {
    sheet.addRow([
      `Import ${tag} Trading ${i}`,
      `Contact ${i}`,
      `import-${tag}-${i}@example.com`,
      `+86 138 ${String(i).padStart(4, "0")} ${String((i * 7919) % 10000).padStart(4, "0")}`,
      COUNTRIES[i % COUNTRIES.length]!,
      STATUSES[i % STATUSES.length]!,
      i % 3 === 0 ? `Asked for a quotation on item ${i}; follow up after the fair.` : "",
    ]);
  }
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

interface ImportRun {
  seconds: number;
  created: number;
  rssBeforeKb: number;
  /** VmHWM after the import: the peak since the reset just before it (or lifetime, if refused). */
  hwmAfterKb: number;
  /** Highest VmRSS seen polling /proc every 10 ms during the import (cross-check). */
  sampledPeakKb: number;
  peakGrowthKb: number;
  hwmReset: boolean;
  fileBytes: number;
}

export interface ImportResult {
  runs: ImportRun[];
  medianSeconds: number;
  maxPeakGrowthKb: number;
  maxHwmKb: number;
  hwmReset: boolean;
}

/** Posts each file once as multipart `file`, one bench user per file (so every row inserts). */
export async function measureImport(options: {
  url: string;
  pid: number;
  files: { token: string; bytes: Uint8Array; tag: string }[];
  log: (line: string) => void;
}): Promise<ImportResult> {
  const runs: ImportRun[] = [];
  for (const [index, file] of options.files.entries()) {
    const form = new FormData();
    const blob = new Blob([file.bytes as Uint8Array<ArrayBuffer>], {
      type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    });
    form.append("file", blob, `customers-${file.tag}.xlsx`);
    const hwmReset = resetPeakRss(options.pid);
    const before = readProcMemory(options.pid);
    let sampledPeakKb = before.rssKb;
    const sampler = setInterval(() => {
      try {
        sampledPeakKb = Math.max(sampledPeakKb, readProcMemory(options.pid).rssKb);
      } catch {
        // process gone: the request fails below
      }
    }, 10);
    const started = performance.now();
    let status: number;
    let body: { created?: number; detail?: unknown };
    try {
      const res = await fetch(options.url, {
        method: "POST",
        headers: { authorization: `Bearer ${file.token}` },
        body: form,
      });
      status = res.status;
      body = (await res.json()) as typeof body;
    } finally {
      clearInterval(sampler);
    }
    const seconds = (performance.now() - started) / 1000;
    const after = readProcMemory(options.pid);
    sampledPeakKb = Math.max(sampledPeakKb, after.rssKb);
    if (status !== 200 || body.created !== IMPORT_ROWS) {
      throw new Error(`import run ${index + 1}: ${status} ${JSON.stringify(body).slice(0, 500)}`);
    }
    const run: ImportRun = {
      seconds,
      created: body.created,
      rssBeforeKb: before.rssKb,
      hwmAfterKb: after.hwmKb,
      sampledPeakKb,
      peakGrowthKb:
        (hwmReset ? Math.max(after.hwmKb, sampledPeakKb) : sampledPeakKb) - before.rssKb,
      hwmReset,
      fileBytes: file.bytes.byteLength,
    };
    runs.push(run);
    options.log(
      `  import run ${index + 1}/${options.files.length}: ${seconds.toFixed(2)} s, ${run.created} created, RSS ${mb(run.rssBeforeKb)} -> peak ${mb(run.hwmAfterKb)} MB (VmHWM${hwmReset ? "" : ", not reset"}), sampled ${mb(sampledPeakKb)} MB`,
    );
  }
  return {
    runs,
    medianSeconds: median(runs.map((r) => r.seconds)),
    maxPeakGrowthKb: Math.max(...runs.map((r) => r.peakGrowthKb)),
    maxHwmKb: Math.max(...runs.map((r) => Math.max(r.hwmAfterKb, r.sampledPeakKb))),
    hwmReset: runs.every((r) => r.hwmReset),
  };
}

/** kB (as /proc reports) to MB (MiB), one decimal below 100. */
export const mb = (kb: number): string => {
  const value = kb / 1024;
  return value.toFixed(value < 100 ? 1 : 0);
};
