import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { sha256Hex } from "../../src/lib/crypto";
import { provideCjkFont } from "../../src/modules/quotations/pdf-font";
import { depositBasisPoints, splitTotal } from "../../src/modules/quotations/service";
import { nodeCjkFont } from "../../src/runtime/node/cjk-font";
import { call, registerUser, type Session } from "../support/client";
import { createTestContext } from "../support/harness";
import { createCompany, orgIdOf } from "../support/orgs";

// Issue #23 item 3: the proforma invoice of an accepted quotation (API.md "Trade documents",
// docs/quotations.md, ADR 0106): its own number series per organisation, issued once and kept,
// the deposit and balance split from the payment terms, bank details from the document settings.

const ctx = await createTestContext();
const { app, database } = ctx;
provideCjkFont(nodeCjkFont);
const Q = "/api/v1/quotations";
const dir = mkdtempSync(join(tmpdir(), "proforma-"));

const as = (user: Session) => ({ token: user.accessToken, csrf: user.csrfToken });
const patch = (user: Session, id: string, json: unknown) =>
  call(app, `${Q}/${id}`, { ...as(user), method: "PATCH", json });

async function exportDoc(user: Session, id: string, query: string) {
  return app.request(`${Q}/${id}/export?${query}`, {
    headers: { Authorization: `Bearer ${user.accessToken}` },
  });
}

function pdfText(bytes: ArrayBuffer) {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, Buffer.from(bytes));
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}

async function quotation(user: Session, status: "draft" | "sent" | "accepted", total = 10_001) {
  const customer = await call(app, "/api/v1/customers", {
    ...as(user),
    json: { company: "Hanseatic Trading GmbH", contact_name: "Anna Schmidt", country: "DE" },
  });
  expect(customer.status).toBe(201);
  const created = await call(app, Q, {
    ...as(user),
    json: {
      customer_id: customer.body.id,
      currency: "USD",
      incoterm: "FOB",
      named_place: "Ningbo",
      port_of_loading: "Ningbo",
      buyer_address: "Hafenstrasse 1\n20457 Hamburg",
      items: [{ name: "Vacuum cup", quantity: 1, unit_price: total }],
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as string;
  if (status !== "draft") expect((await patch(user, id, { status: "sent" })).status).toBe(200);
  if (status === "accepted") {
    expect((await patch(user, id, { status: "accepted" })).status).toBe(200);
  }
  return created.body as { id: string; quote_no: string };
}

async function settings(user: Session, payment_terms: string | null) {
  const res = await call(app, "/api/v1/org/document-settings", {
    ...as(user),
    method: "PUT",
    json: {
      legal_name: "Ningbo Everbright Housewares Co., Ltd.",
      bank_details: "Bank of China, Ningbo Branch\nSWIFT: BKCHCNBJ92A",
      payment_terms,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe("proforma invoice", () => {
  it("of an accepted quotation: numbered once, kept on re-export, deposit and balance exact", async () => {
    const user = await registerUser(app);
    await settings(user, "30% deposit by T/T, 70% balance before shipment");
    const q = await quotation(user, "accepted", 10_001);

    const first = await exportDoc(user, q.id, "document=proforma&format=pdf");
    expect(first.status).toBe(200);
    expect(first.headers.get("Content-Type")).toBe("application/pdf");
    const year = new Date().getUTCFullYear();
    expect(first.headers.get("Content-Disposition")).toBe(
      `attachment; filename="PI-${year}-0001.pdf"`,
    );
    const text = pdfText(await first.arrayBuffer());
    expect(text).toContain("PROFORMA INVOICE");
    expect(text).toContain(`PI-${year}-0001`);
    // 30% of 100.01 is 30.003: the deposit 30.00, the balance the rest, 70.01.
    expect(text).toMatch(/Deposit \(30%\)[^\n]*30\.00/);
    expect(text).toMatch(/Balance[^\n]*70\.01/);
    expect(text).toContain("BKCHCNBJ92A");
    expect(text).toContain("Hanseatic Trading GmbH");

    const got = await call(app, `${Q}/${q.id}`, { token: user.accessToken });
    expect(got.body.proforma_no).toBe(`PI-${year}-0001`);
    expect(got.body.proforma_date).toBe(new Date().toISOString().slice(0, 10));

    // Re-exported (pdf or xlsx): the same number, no new one.
    const again = await exportDoc(user, q.id, "document=proforma&format=xlsx");
    expect(again.status).toBe(200);
    expect(again.headers.get("Content-Disposition")).toBe(
      `attachment; filename="PI-${year}-0001.xlsx"`,
    );
    const second = await quotation(user, "accepted");
    const next = await exportDoc(user, second.id, "document=proforma&format=xlsx");
    expect(next.headers.get("Content-Disposition")).toContain(`PI-${year}-0002`);

    // The quotation itself still exports as a quotation under its own number.
    const plain = await exportDoc(user, q.id, "format=pdf");
    expect(plain.headers.get("Content-Disposition")).toBe(
      `attachment; filename="${q.quote_no}.pdf"`,
    );
    // The first PDF of the file loads pdf-lib, fontkit and the CJK font: slow on a busy machine.
  }, 120_000);

  it("is refused for a quotation that is not accepted (409), numbering nothing", async () => {
    const user = await registerUser(app);
    for (const status of ["draft", "sent"] as const) {
      const q = await quotation(user, status);
      const res = await exportDoc(user, q.id, "document=proforma");
      expect(res.status).toBe(409);
      const body = await res.json();
      expect(body).toMatchObject({ code: "quotation_not_accepted", status });
    }
    const rejected = await quotation(user, "sent");
    await patch(user, rejected.id, { status: "rejected" });
    expect((await exportDoc(user, rejected.id, "document=proforma")).status).toBe(409);
    const [row] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from quotations
          where user_id = ${user.userId} and proforma_no is not null`,
    );
    expect(row!.n).toBe(0);
  });

  it("numbers per organisation: members share one series; another organisation has its own", async () => {
    const company = await createCompany(ctx);
    const year = new Date().getUTCFullYear();
    const a = await quotation(company.member, "accepted");
    const b = await quotation(company.colleague, "accepted");
    const c = await quotation(company.outsider, "accepted");
    const names = await Promise.all(
      [
        [company.member, a],
        [company.colleague, b],
        [company.outsider, c],
      ].map(async ([user, q]) => {
        const res = await exportDoc(
          user as Session,
          (q as { id: string }).id,
          "document=proforma&format=xlsx",
        );
        expect(res.status).toBe(200);
        return res.headers.get("Content-Disposition");
      }),
    );
    expect(names.slice(0, 2).sort()).toEqual([
      `attachment; filename="PI-${year}-0001.xlsx"`,
      `attachment; filename="PI-${year}-0002.xlsx"`,
    ]);
    expect(names[2]).toBe(`attachment; filename="PI-${year}-0001.xlsx"`);
    // Another member's quotation is not theirs to export; another organisation's is not found.
    expect((await exportDoc(company.colleague, a.id, "document=proforma")).status).toBe(404);
    expect((await exportDoc(company.outsider, a.id, "document=proforma")).status).toBe(404);
    // The manager sees the organisation's: the same number as before.
    const byManager = await exportDoc(company.manager, a.id, "document=proforma&format=xlsx");
    expect(byManager.headers.get("Content-Disposition")).toBe(names[0]);
  });

  it("moved by bring_data into an organisation that issued the same number: kept with a suffix", async () => {
    const year = new Date().getUTCFullYear();
    const host = await registerUser(app);
    const joiner = await registerUser(app);
    const hosted = await quotation(host, "accepted");
    const brought = await quotation(joiner, "accepted");
    for (const [user, q] of [
      [host, hosted],
      [joiner, brought],
    ] as const) {
      const res = await exportDoc(user, q.id, "document=proforma&format=xlsx");
      expect(res.headers.get("Content-Disposition")).toContain(`PI-${year}-0001`);
    }
    // An invitation of the host's organisation, accepted with bring_data (seats enough).
    const hostOrg = await orgIdOf(database, host);
    const token = `proforma-move-${Math.random().toString(36).slice(2)}`;
    await database.db.execute(
      sql`update subscription_plans set limits = limits || '{"seats": 100}'::jsonb`,
    );
    await database.db.execute(
      sql`update users set email_verified_at = now() where id = ${joiner.userId}::uuid`,
    );
    const [account] = await queryRows<{ email: string }>(
      database.db,
      sql`select email from users where id = ${joiner.userId}::uuid`,
    );
    await database.db.execute(sql`insert into org_invitations (org_id, email, role, token_hash, invited_by, expires_at)
      values (${hostOrg}::uuid, ${account!.email.toLowerCase()}, 'member', ${await sha256Hex(token)},
        ${host.userId}::uuid, now() + interval '1 day')`);
    const accepted = await call(app, "/api/v1/org/invitations/accept", {
      ...as(joiner),
      json: { token, bring_data: true },
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);

    const moved = await call(app, `${Q}/${brought.id}`, { token: host.accessToken });
    expect(moved.body.org_id).toBe(hostOrg);
    expect(moved.body.proforma_no).toBe(`PI-${year}-0001-${brought.id.slice(0, 8)}`);
    expect(
      (await call(app, `${Q}/${hosted.id}`, { token: host.accessToken })).body.proforma_no,
    ).toBe(`PI-${year}-0001`);
    // The organisation's series goes on from its own numbers.
    const next = await quotation(host, "accepted");
    const res = await exportDoc(host, next.id, "document=proforma&format=xlsx");
    expect(res.headers.get("Content-Disposition")).toContain(`PI-${year}-0002`);
  });

  it("without a deposit in the payment terms: the whole total is the balance", async () => {
    const user = await registerUser(app);
    await settings(user, "100% by L/C at sight");
    const q = await quotation(user, "accepted", 4_250);
    const res = await exportDoc(user, q.id, "document=proforma&format=pdf");
    expect(res.status).toBe(200);
    const text = pdfText(await res.arrayBuffer());
    expect(text).toMatch(/Balance[^\n]*42\.50/);
  });
});

describe("deposit split", () => {
  it("reads the deposit's percentage from the payment terms", () => {
    expect(depositBasisPoints("30% deposit, 70% balance")).toBe(3000);
    expect(depositBasisPoints("30% T/T deposit, balance against B/L copy")).toBe(3000);
    expect(depositBasisPoints("Deposit of 33.5% with the order")).toBe(3350);
    expect(depositBasisPoints("50% advance, 50% before shipment")).toBe(5000);
    expect(depositBasisPoints("30%定金，70%尾款")).toBe(3000);
    expect(depositBasisPoints("Net 30 days")).toBeNull();
    expect(depositBasisPoints(null)).toBeNull();
  });

  it("is exact in minor units: deposit + balance = total", () => {
    expect(splitTotal(10_001, 3000)).toEqual({ deposit: 3000, balance: 7001, deposit_percent: 30 });
    expect(splitTotal(1, 5000)).toEqual({ deposit: 1, balance: 0, deposit_percent: 50 });
    expect(splitTotal(999, 3350)).toEqual({ deposit: 335, balance: 664, deposit_percent: 33.5 });
    expect(splitTotal(2_147_483_647, 3333)).toMatchObject({ deposit: 715_756_300 });
    for (const total of [0, 1, 7, 99, 12_345, 2_147_483_647]) {
      for (const bp of [0, 1, 2500, 3333, 10_000]) {
        const { deposit, balance } = splitTotal(total, bp);
        expect(deposit + balance).toBe(total);
        expect(deposit).toBeGreaterThanOrEqual(0);
        expect(balance).toBeGreaterThanOrEqual(0);
      }
    }
    expect(splitTotal(500, null)).toEqual({ deposit: 0, balance: 500, deposit_percent: null });
  });
});
