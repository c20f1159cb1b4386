import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encryptSecret, importEncryptionKey } from "../../src/lib/crypto";
import { EXPORT_BATCH_ROWS } from "../../src/modules/imports/exports";
import { nodeCjkFont } from "../../src/runtime/node/cjk-font";
import { type FakeDeepl, startFakeDeepl } from "../fakes/deepl";
import { type FakeOpenAi, startFakeOpenAi } from "../fakes/openai";
import { type NeonRelay, startNeonRelay } from "../support/neon-relay";
import {
  callWorker,
  postJson,
  startWorker,
  suiteDatabase,
  TEST_BINDINGS,
  type Worker,
} from "../support/workerd";

/**
 * The seller-facing Workers in workerd over the Neon driver: on the api Worker the customer
 * search (pg_trgm through Neon) and the AI routes; on the documents Worker the spreadsheet import
 * and export (exceljs in workerd) and the quotation exports (exceljs writing, pdf-lib with the
 * CJK font fetched from PDF_FONT_URL). Both share one database.
 */

const DATABASE_URL = process.env.DATABASE_URL;
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/**
 * A multipart body as bytes and its content type: a FormData handed to the Worker's fetch would
 * cross into Miniflare's own undici, which does not recognise it as a form.
 */
async function multipart(file: Uint8Array, name: string) {
  const form = new FormData();
  form.append("file", new Blob([file as Uint8Array<ArrayBuffer>], { type: XLSX }), name);
  const request = new Request("http://localhost/", { method: "POST", body: form });
  return {
    body: new Uint8Array(await request.arrayBuffer()),
    contentType: request.headers.get("content-type")!,
  };
}

async function customerSheet(rows: string[][]): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("客户");
  sheet.addRow(["公司", "联系人", "邮箱", "状态"]);
  for (const row of rows) sheet.addRow(row);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

describe.skipIf(!DATABASE_URL)("api and documents Workers in workerd over the Neon driver", () => {
  let scratch: string;
  let relay: NeonRelay;
  let auth: Worker;
  let api: Worker;
  let documents: Worker;
  let fontServer: Server;
  let openai: FakeOpenAi;
  let deepl: FakeDeepl;
  let databaseUrl = "";
  let token = "";
  let database: Awaited<ReturnType<typeof suiteDatabase>> | undefined;

  const bearer = () => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), "ta-worker-api-"));
    database = await suiteDatabase("api");
    databaseUrl = database.url;
    [openai, deepl] = await Promise.all([startFakeOpenAi(), startFakeDeepl()]);
    const font = await nodeCjkFont();
    fontServer = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "font/ttf", "content-length": String(font.length) });
      res.end(font);
    });
    await new Promise<void>((resolve) => fontServer.listen(0, "127.0.0.1", resolve));
    const fontUrl = `http://127.0.0.1:${(fontServer.address() as AddressInfo).port}/font.ttf`;
    relay = await startNeonRelay();
    const bindings = {
      ...TEST_BINDINGS,
      DATABASE_URL: databaseUrl,
      NEON_WS_PROXY: relay.proxy,
      PDF_FONT_URL: fontUrl,
    };
    const noEnv = join(scratch, "none.env");
    [auth, api, documents] = await Promise.all([
      startWorker("auth", bindings, noEnv),
      startWorker("api", bindings, noEnv),
      startWorker("documents", bindings, noEnv),
    ]);
    await Promise.all([auth.ready, api.ready, documents.ready]);
    const registered = await callWorker(
      auth,
      "/api/v1/auth/register",
      postJson({
        email: `api-${Date.now().toString(36)}@example.com`,
        password: "correct horse 1",
      }),
    );
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    token = registered.body.access_token;
  }, 120_000);

  afterAll(async () => {
    await Promise.all([auth?.dispose(), api?.dispose(), documents?.dispose()]);
    await relay?.close();
    await Promise.all([openai?.close(), deepl?.close()]);
    fontServer?.closeAllConnections();
    await new Promise((resolve) => fontServer?.close(resolve));
    await database?.drop();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it("imports an .xlsx (dry run, then commit), searches it and exports it again", async () => {
    const sheet = await customerSheet([
      ["Zenith Textiles", "Anna Berg", "anna@zenith.example", "negotiating"],
      ["上海进出口贸易有限公司", "王伟", "wang@sh.example", "新客户"],
      ["Orbit Foods", "Carlos Silva", "not-an-email", "new"],
    ]);
    const upload = async (query: string, file = sheet, worker = documents) => {
      const { body, contentType } = await multipart(file, "c.xlsx");
      return callWorker(worker, `/api/v1/customers/import${query}`, {
        method: "POST",
        headers: { ...bearer(), "content-type": contentType },
        body,
      });
    };
    const dry = await upload("?dry_run=true");
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body, JSON.stringify(dry.body)).toMatchObject({
      dry_run: true,
      rows: 3,
      valid: 2,
      invalid: 1,
      created: 0, // a dry run writes nothing (the list below is still empty)
      would_create: 2,
    });
    expect(dry.body.errors[0]).toMatchObject({ row: 4 });

    // All or nothing: the bad row refuses the commit, and nothing is written.
    const refused = await upload("");
    expect(refused.status).toBe(422);
    // The api Worker does not carry the spreadsheet routes: they are the documents Worker's.
    // `/customers/import` still matches its `/customers/{id}` routes, so the answer is 405
    // naming those methods, never POST (ADR 0093: a parameter segment matches any word).
    const misrouted = await upload("?dry_run=true", sheet, api);
    expect(misrouted.status).toBe(405);
    expect(misrouted.body.code).toBe("method_not_allowed");
    expect(misrouted.body.detail.split("allowed:")[1]).not.toContain("POST");
    const empty = await callWorker(api, "/api/v1/customers", { headers: bearer() });
    expect(empty.body.total).toBe(0);

    const fixed = await customerSheet([
      ["Zenith Textiles", "Anna Berg", "anna@zenith.example", "negotiating"],
      ["上海进出口贸易有限公司", "王伟", "wang@sh.example", "新客户"],
    ]);
    const committed = await upload("", fixed);
    expect(committed.status, JSON.stringify(committed.body)).toBe(200);
    expect(committed.body).toMatchObject({ created: 2, updated: 0 });

    const search = await callWorker(api, "/api/v1/customers?q=zenith&status=negotiating", {
      headers: bearer(),
    });
    expect(search.status).toBe(200);
    expect(search.body.total).toBe(1);
    expect(search.body.items[0]).toMatchObject({
      company: "Zenith Textiles",
      status: "negotiating",
    });
    const cjk = await callWorker(api, `/api/v1/customers?q=${encodeURIComponent("进出口")}`, {
      headers: bearer(),
    });
    expect(cjk.body.items.map((c: { contact_name: string }) => c.contact_name)).toEqual(["王伟"]);

    const exported = await documents.fetch(
      new URL("/api/v1/customers/export", await documents.url).href,
      { headers: bearer() } as never,
    );
    expect(exported.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await exported.arrayBuffer());
    const companies: string[] = [];
    workbook.worksheets[0]!.eachRow((row, n) => {
      if (n > 1) companies.push(String(row.getCell(1).value));
    });
    expect(companies.sort()).toEqual(["Zenith Textiles", "上海进出口贸易有限公司"].sort());
  });

  it("streams a customer export of more rows than one batch (the Neon driver in a stream)", async () => {
    // The export reads its rows batch by batch while the body streams: on Workers every batch
    // after the first runs after the handler returned, through the request's database context.
    const rows = EXPORT_BATCH_ROWS * 2 + 5;
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const me = await callWorker(auth, "/api/v1/auth/me", { headers: bearer() });
      await db.query(
        "update orgs set plan = 'business', plan_expires_at = null where id = (select org_id from org_members where user_id = $1)",
        [me.body.id],
      );
      await db.query(
        `insert into customers (user_id, company, created_at)
         select $1::uuid, 'Streamed ' || i, timestamptz '2026-02-01' + make_interval(secs => i)
         from generate_series(1, $2::int) as i`,
        [me.body.id, rows],
      );
    } finally {
      await db.end();
    }
    const csv = await documents.fetch(
      new URL("/api/v1/customers/export?format=csv", await documents.url).href,
      { headers: bearer() } as never,
    );
    expect(csv.status).toBe(200);
    const streamed = (await csv.text())
      .split(/\r?\n/)
      .filter((line) => line.startsWith("Streamed "))
      .map((line) => line.split(",")[0]);
    expect(streamed).toEqual(Array.from({ length: rows }, (_, i) => `Streamed ${i + 1}`));

    const xlsx = await documents.fetch(
      new URL("/api/v1/customers/export?format=xlsx", await documents.url).href,
      { headers: bearer() } as never,
    );
    expect(xlsx.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await xlsx.arrayBuffer());
    const companies: string[] = [];
    workbook.worksheets[0]!.eachRow((row, n) => {
      const company = String(row.getCell(1).value);
      if (n > 1 && company.startsWith("Streamed ")) companies.push(company);
    });
    expect(companies).toEqual(Array.from({ length: rows }, (_, i) => `Streamed ${i + 1}`));
  }, 120_000);

  it("exports a quotation as .xlsx and as a PDF with the fetched CJK font", async () => {
    const created = await callWorker(
      documents,
      "/api/v1/quotations",
      postJson(
        { currency: "USD", items: [{ name: "不锈钢保温杯", quantity: 1000, unit_price: 1299 }] },
        bearer(),
      ),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.total).toBe(1_299_000);

    const exportAs = async (format: string) => {
      const res = await documents.fetch(
        new URL(
          `/api/v1/quotations/${created.body.id}/export?format=${format}`,
          await documents.url,
        ).href,
        { headers: bearer() } as never,
      );
      return { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()) };
    };
    const xlsx = await exportAs("xlsx");
    expect(xlsx.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.bytes.buffer as ArrayBuffer);
    const cells: unknown[] = [];
    workbook.worksheets[0]!.eachRow((row) => {
      row.eachCell((cell) => cells.push(cell.value));
    });
    expect(cells).toContain("不锈钢保温杯");

    const pdf = await exportAs("pdf");
    expect(pdf.status).toBe(200);
    const text = new TextDecoder("latin1").decode(pdf.bytes);
    expect(text.startsWith("%PDF-")).toBe(true);
    expect(text).toMatch(/\/FontFile2/);
    expect(text).toMatch(/NotoSansSC/);
  });

  it("translates, chats and streams through the AI providers (the ai SDK in workerd)", async () => {
    // Providers as the admin API stores them: keys sealed under the Worker's encryption key.
    const key = await importEncryptionKey(TEST_BINDINGS.APP_ENCRYPTION_KEY);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(
        `insert into ai_providers (name, kind, base_url, api_key_ciphertext, models)
         values ('fake-llm', 'llm', $1, $2, '["gpt-fake"]'), ('fake-mt', 'mt', $3, $4, '[]')`,
        [
          openai.url,
          await encryptSecret(key, openai.apiKey),
          deepl.url,
          await encryptSecret(key, deepl.apiKey),
        ],
      );
    } finally {
      await client.end();
    }
    const translated = await callWorker(
      api,
      "/api/v1/translate",
      postJson({ text: "Bonjour, quel est votre prix ?", target_lang: "zh" }, bearer()),
    );
    expect(translated.status, JSON.stringify(translated.body)).toBe(200);
    expect(translated.body).toMatchObject({
      translation: "[ZH] Bonjour, quel est votre prix ?",
      tier: "mt",
      provider: "fake-mt",
      credits_charged: 1,
    });

    openai.reply((messages) => `Reply to: ${messages.at(-1)?.content}`);
    const chat = await callWorker(
      api,
      "/api/v1/ai/chat",
      postJson({ message: "How do I answer a discount request?" }, bearer()),
    );
    expect(chat.status, JSON.stringify(chat.body)).toBe(200);
    expect(chat.body.message).toMatchObject({
      content: "Reply to: How do I answer a discount request?",
      source: "llm",
    });
    expect(openai.requests.at(-1)?.authorization).toBe(`Bearer ${openai.apiKey}`);
    expect(chat.body).toMatchObject({ credits_charged: 1, balance: translated.body.balance - 1 });

    const streamed = await api.fetch(new URL("/api/v1/ai/chat?stream=true", await api.url).href, {
      method: "POST",
      headers: { ...bearer(), "content-type": "application/json" },
      body: JSON.stringify({ message: "Stream a longer answer, please" }),
    } as never);
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get("content-type")).toContain("text/event-stream");
    const events = await streamed.text();
    const deltas = [...events.matchAll(/event: delta\ndata: (.*)\n/g)].map(
      (m) => (JSON.parse(m[1]!) as { text: string }).text,
    );
    expect(deltas.join("")).toBe("Reply to: Stream a longer answer, please");
    const done = /event: done\ndata: (.*)\n/.exec(events);
    expect(JSON.parse(done![1]!)).toMatchObject({
      credits_charged: 1,
      balance: chat.body.balance - 1,
    });
  });
});
