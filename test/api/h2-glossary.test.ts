import { sql } from "drizzle-orm";
import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { call, registerUser, type Session } from "../support/client";
import { createTestContext } from "../support/harness";
import { type Company, createCompany, orgIdOf } from "../support/orgs";

/** The seller's glossary (issue #24 item 2): CRUD and import per organisation. */

const ctx = await createTestContext();
const { app, deps } = ctx;
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

let company: Company;
beforeAll(async () => {
  company = await createCompany(ctx);
});

const as = (s: Session) => ({ token: s.accessToken, ip: s.ip });

function post(s: Session, json: unknown) {
  return call(app, "/api/v1/glossary", { ...as(s), method: "POST", json });
}

async function upload(s: Session, bytes: Uint8Array | string, filename: string, query = "") {
  const form = new FormData();
  const type = filename.endsWith(".csv") ? "text/csv" : XLSX;
  form.append("file", new File([bytes as BlobPart], filename, { type }));
  return call(app, `/api/v1/glossary/import${query}`, { ...as(s), method: "POST", body: form });
}

async function xlsx(rows: string[][]): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("Terms");
  for (const row of rows) ws.addRow(row);
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

async function storedTerms(s: Session) {
  const orgId = await orgIdOf(ctx.database, s);
  return queryRows<{
    source_lang: string;
    target_lang: string;
    source_term: string;
    target_term: string;
    note: string | null;
  }>(
    deps.db,
    sql`select source_lang, target_lang, source_term, target_term, note from glossary_terms
        where org_id = ${orgId}::uuid order by lower(source_term)`,
  );
}

describe("glossary CRUD", () => {
  it("a manager adds, lists, changes and deletes a term; languages keep their primary subtag", async () => {
    const created = await post(company.manager, {
      source_lang: "en-GB",
      target_lang: "es",
      source_term: "PowerLite X2",
      target_term: "PowerLite X2 (lámpara)",
      note: "our flagship lamp",
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      source_lang: "en",
      target_lang: "es",
      source_term: "PowerLite X2",
      target_term: "PowerLite X2 (lámpara)",
      note: "our flagship lamp",
      created_by: company.manager.userId,
    });
    const id = created.body.id as string;

    // Every member of the organisation reads it.
    const listed = await call(
      app,
      "/api/v1/glossary?target_lang=es&q=powerlite",
      as(company.member),
    );
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((t: { id: string }) => t.id)).toContain(id);
    expect(listed.body.total).toBeGreaterThanOrEqual(1);
    const otherPair = await call(app, "/api/v1/glossary?target_lang=de", as(company.member));
    expect(otherPair.body.items.map((t: { id: string }) => t.id)).not.toContain(id);

    const patched = await call(app, `/api/v1/glossary/${id}`, {
      ...as(company.admin),
      method: "PATCH",
      json: { target_term: "PowerLite X2", note: null },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ target_term: "PowerLite X2", note: null });

    const gone = await call(app, `/api/v1/glossary/${id}`, {
      ...as(company.owner),
      method: "DELETE",
    });
    expect(gone.status).toBe(204);
    const again = await call(app, `/api/v1/glossary/${id}`, {
      ...as(company.owner),
      method: "DELETE",
    });
    expect(again.status).toBe(404);
  });

  it("the same source term in a pair, whatever its case, is a 409; same languages a 422", async () => {
    const first = await post(company.owner, {
      source_lang: "en",
      target_lang: "fr",
      source_term: "AquaMax",
      target_term: "AquaMax",
    });
    expect(first.status).toBe(201);
    const dup = await post(company.owner, {
      source_lang: "en",
      target_lang: "fr",
      source_term: "aquamax",
      target_term: "Aqua Max",
    });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe("conflict");
    const same = await post(company.owner, {
      source_lang: "en",
      target_lang: "en-US",
      source_term: "x",
      target_term: "y",
    });
    expect(same.status).toBe(422);
    const patchSame = await call(app, `/api/v1/glossary/${first.body.id}`, {
      ...as(company.owner),
      method: "PATCH",
      json: { target_lang: "en" },
    });
    expect(patchSame.status).toBe(422);
  });

  it("a member reads but may not write (403); another organisation's id is 404", async () => {
    const refused = await post(company.member, {
      source_lang: "en",
      target_lang: "de",
      source_term: "Member term",
      target_term: "Mitglied",
    });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("forbidden");

    const term = await post(company.owner, {
      source_lang: "en",
      target_lang: "de",
      source_term: "SolarBox",
      target_term: "SolarBox",
    });
    expect(term.status).toBe(201);
    const memberPatch = await call(app, `/api/v1/glossary/${term.body.id}`, {
      ...as(company.member),
      method: "PATCH",
      json: { target_term: "Sonnenkasten" },
    });
    expect(memberPatch.status).toBe(403);

    for (const [method, json] of [
      ["PATCH", { target_term: "Stolen" }],
      ["DELETE", undefined],
    ] as const) {
      const res = await call(app, `/api/v1/glossary/${term.body.id}`, {
        ...as(company.outsider),
        method,
        json,
      });
      expect(res.status, method).toBe(404);
    }
    const outsiderList = await call(app, "/api/v1/glossary?q=solarbox", as(company.outsider));
    expect(outsiderList.body.items).toEqual([]);
    const [row] = await queryRows<{ target_term: string }>(
      deps.db,
      sql`select target_term from glossary_terms where id = ${term.body.id}::uuid`,
    );
    expect(row?.target_term).toBe("SolarBox");
  });
});

describe("glossary import", () => {
  it("a .csv: valid rows are written (an existing term replaced), a bad row listed with its line", async () => {
    const s = company.owner;
    const before = await post(s, {
      source_lang: "en",
      target_lang: "zh",
      source_term: "LED Panel Pro",
      target_term: "旧译名",
    });
    expect(before.status).toBe(201);
    const csv = [
      "source_term,target_term,source_lang,target_lang,note",
      "led panel pro,LED面板Pro,en,zh,flagship",
      "FlexStrip,柔性灯带,en,zh,",
      ",缺原文,en,zh,",
      "Bad Lang,x,english!,zh,",
      "FlexStrip,柔性灯带二代,en,zh,later row wins",
    ].join("\r\n");
    const res = await upload(s, csv, "terms.csv");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      dry_run: false,
      rows: 5,
      valid: 3,
      invalid: 2,
      duplicates: 1,
      created: 1,
      updated: 1,
    });
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ row: 4, column: "source_term" }),
        expect.objectContaining({ row: 5, column: "source_lang" }),
      ]),
    );
    const zh = (await storedTerms(s)).filter((t) => t.target_lang === "zh");
    expect(zh).toEqual([
      {
        source_lang: "en",
        target_lang: "zh",
        source_term: "FlexStrip",
        target_term: "柔性灯带二代",
        note: "later row wins",
      },
      // The existing term keeps its spelling and gets the file's target.
      {
        source_lang: "en",
        target_lang: "zh",
        source_term: "LED Panel Pro",
        target_term: "LED面板Pro",
        note: "flagship",
      },
    ]);
  });

  it("an .xlsx with Chinese headers and the pair from the query; a dry run writes nothing", async () => {
    const s = company.admin;
    const file = await xlsx([
      ["原文", "译文", "备注"],
      ["Sunbeam Lamp", "Lámpara Sunbeam", "brand"],
      ["", "sin término", ""],
      ["Rainproof Case", "Estuche impermeable", ""],
    ]);
    const dry = await upload(s, file, "terms.xlsx", "?source_lang=en&target_lang=es&dry_run=true");
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body).toMatchObject({ dry_run: true, rows: 3, valid: 2, invalid: 1, created: 0 });
    expect((await storedTerms(s)).some((t) => t.source_term === "Sunbeam Lamp")).toBe(false);

    const res = await upload(s, file, "terms.xlsx", "?source_lang=en&target_lang=es");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ valid: 2, invalid: 1, created: 2, updated: 0 });
    expect(res.body.errors).toEqual([expect.objectContaining({ row: 3, column: "原文" })]);
    const es = (await storedTerms(s)).filter((t) => t.target_lang === "es");
    expect(es.map((t) => [t.source_term, t.target_term])).toEqual(
      expect.arrayContaining([
        ["Rainproof Case", "Estuche impermeable"],
        ["Sunbeam Lamp", "Lámpara Sunbeam"],
      ]),
    );
  });

  it("takes a file past the app-wide body limit, as the other imports (up to 10 MB)", async () => {
    const note = "n".repeat(500);
    const rows = Math.ceil((deps.config.BODY_LIMIT_BYTES + 10_000) / 520);
    expect(rows).toBeLessThanOrEqual(5000);
    const lines = ["source_term,target_term,note"];
    for (let i = 0; i < rows; i++) lines.push(`Bulk term ${i},Término ${i},${note}`);
    const csv = lines.join("\n");
    expect(csv.length).toBeGreaterThan(deps.config.BODY_LIMIT_BYTES);
    const res = await upload(company.owner, csv, "bulk.csv", "?source_lang=en&target_lang=it");
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body).toMatchObject({ rows, valid: rows, created: rows, invalid: 0 });
  });

  it("a file without a target column is 422; a member's import is 403 and writes nothing", async () => {
    const noTarget = await upload(company.owner, "source_term\nOnly\n", "terms.csv");
    expect(noTarget.status).toBe(422);
    const member = await upload(
      company.member,
      "source_term,target_term,source_lang,target_lang\nMemberWord,Wort,en,de\n",
      "terms.csv",
    );
    expect(member.status).toBe(403);
    const memberDryRun = await upload(
      company.member,
      "source_term,target_term\n",
      "terms.csv",
      "?dry_run=true&source_lang=en&target_lang=de",
    );
    expect(memberDryRun.status).toBe(403);
    expect((await storedTerms(company.member)).some((t) => t.source_term === "MemberWord")).toBe(
      false,
    );
  });
});

describe("account deletion", () => {
  it("an account alone in its organisation takes the organisation's glossary with it", async () => {
    const seller = await registerUser(app);
    const added = await post(seller, {
      source_lang: "en",
      target_lang: "es",
      source_term: "Leaving Term",
      target_term: "Término",
    });
    expect(added.status).toBe(201);
    const orgId = await orgIdOf(ctx.database, seller);
    const res = await call(app, "/api/v1/users/me", {
      method: "DELETE",
      token: seller.accessToken,
      csrf: seller.csrfToken,
      json: { password: seller.password },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    const rows = await queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from glossary_terms where org_id = ${orgId}::uuid`,
    );
    expect(rows[0]?.n).toBe(0);
  });
});
