import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { createOrder } from "../../src/modules/payments/service/orders";
import {
  call,
  expectStatus,
  randomEmail,
  registerUser,
  type Session,
  api as typed,
} from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";
import { payOrder } from "./payments-helpers";

const adminEmail = randomEmail();
const ctx = await createTestContext();
const { app, deps } = ctx;
const admin = await registerAdmin(ctx, { email: adminEmail });
const asAdmin = (path: string, options: Parameters<typeof call>[2] = {}) =>
  call(app, path, { token: admin.accessToken, ...options });
/** The success paths, typed by the OpenAPI document (ADR 0095); error paths stay on `call()`. */
const t = typed(app);
const packages = await t.get("/api/v1/credits/packages");
expectStatus(packages, 200);
const pkg = packages.body.items[0]!;

/** A sandbox order (no gateway configured), optionally paid through the real fulfilment. */
async function order(user: Session, paid: boolean) {
  const created = await createOrder(deps, {
    userId: user.userId,
    item: { kind: "credits", packageId: pkg.id },
    payType: "alipay",
  });
  if (paid) {
    await payOrder(deps, created);
  }
  return created;
}

const invoiceBody = (orderNo: string) => ({
  order_no: orderNo,
  title: "Ningbo Export Co.",
  tax_number: "91330200MA2AB12345",
  email: "Finance@Example.com",
});

const requestInvoice = (user: Session, body: object) =>
  call(app, "/api/v1/invoices", { token: user.accessToken, csrf: user.csrfToken, json: body });
/** An invoice request that must be created (201), typed. */
const requested201 = async (user: Session, orderNo: string) => {
  const answer = await t.post("/api/v1/invoices", {
    token: user.accessToken,
    csrf: user.csrfToken,
    json: invoiceBody(orderNo),
  });
  expectStatus(answer, 201);
  return answer;
};
const invoicesOf = async (user: Session) => {
  const answer = await t.get("/api/v1/invoices", { token: user.accessToken });
  expectStatus(answer, 200);
  return answer;
};

describe("invoices", () => {
  it("invoices a paid order once; unpaid 409, another user's or unknown 404", async () => {
    const user = await registerUser(app);
    const other = await registerUser(app);
    const paid = await order(user, true);
    const unpaid = await order(user, false);
    const theirs = await order(other, true);

    const created = await requested201(user, paid.order_no);
    expect(created.body).toMatchObject({
      order_no: paid.order_no,
      amount: paid.amount,
      currency: paid.currency,
      status: "requested",
      email: "finance@example.com",
      invoice_number: null,
    });
    expect((await requestInvoice(user, invoiceBody(paid.order_no))).status).toBe(409);
    expect((await requestInvoice(user, invoiceBody(unpaid.order_no))).status).toBe(409);
    expect((await requestInvoice(user, invoiceBody(theirs.order_no))).status).toBe(404);
    expect((await requestInvoice(user, invoiceBody("TA20260101NOSUCHORDER00000"))).status).toBe(
      404,
    );
    const noCsrf = await call(app, "/api/v1/invoices", {
      token: user.accessToken,
      json: invoiceBody(paid.order_no),
    });
    expect(noCsrf.status).toBe(403);

    const mine = await invoicesOf(user);
    expect(mine.body).toMatchObject({ total: 1, page: 1 });
    expect(mine.body.items[0]!.id).toBe(created.body.id);
    const theirList = await invoicesOf(other);
    expect(theirList.body.total).toBe(0);
  });

  it("invoices the amount less refunds", async () => {
    const user = await registerUser(app);
    const paid = await order(user, true);
    await deps.db.execute(
      sql`update payment_transactions set status = 'partially_refunded', refunded_amount = 100
          where order_no = ${paid.order_no}`,
    );
    const created = await requested201(user, paid.order_no);
    expect(created.body.amount).toBe(paid.amount - 100);

    const refunded = await order(user, true);
    await deps.db.execute(
      sql`update payment_transactions set status = 'refunded', refunded_amount = amount
          where order_no = ${refunded.order_no}`,
    );
    expect((await requestInvoice(user, invoiceBody(refunded.order_no))).status).toBe(409);
  });

  it("lets an admin list and issue, which notifies the user", async () => {
    const user = await registerUser(app);
    const paid = await order(user, true);
    const created = await requested201(user, paid.order_no);
    const requested = await t.get("/api/v1/admin/invoices", {
      token: admin.accessToken,
      query: { status: "requested", user_id: user.userId },
    });
    expectStatus(requested, 200);
    expect(requested.body.items).toEqual([
      expect.objectContaining({
        id: created.body.id,
        user_id: user.userId,
        user_email: user.email,
      }),
    ]);
    const issued = await t.post("/api/v1/admin/invoices/{id}/issue", {
      token: admin.accessToken,
      params: { id: created.body.id },
      json: { invoice_number: "INV-2026-0001" },
    });
    expectStatus(issued, 200);
    expect(issued.body).toMatchObject({
      status: "issued",
      invoice_number: "INV-2026-0001",
      issued_at: expect.any(String),
    });
    const again = await asAdmin(`/api/v1/admin/invoices/${created.body.id}/issue`, {
      json: { invoice_number: "INV-2026-0002" },
    });
    expect(again.status).toBe(409);
    const missing = await asAdmin(`/api/v1/admin/invoices/${crypto.randomUUID()}/issue`, {
      json: { invoice_number: "INV-X" },
    });
    expect(missing.status).toBe(404);
    const issuedList = await t.get("/api/v1/admin/invoices", {
      token: admin.accessToken,
      query: { status: "issued", user_id: user.userId },
    });
    expectStatus(issuedList, 200);
    expect(issuedList.body.total).toBe(1);

    const notes = await t.get("/api/v1/notifications", { token: user.accessToken });
    expectStatus(notes, 200);
    // The order's own payment_succeeded notification is there too (payments/notices.ts).
    expect(notes.body.items.filter((n) => n.kind !== "payment_succeeded")).toEqual([
      expect.objectContaining({
        kind: "invoice_issued",
        data: {
          invoice_id: created.body.id,
          order_no: paid.order_no,
          invoice_number: "INV-2026-0001",
        },
      }),
    ]);
    const mine = await invoicesOf(user);
    expect(mine.body.items[0]).toMatchObject({ status: "issued", invoice_number: "INV-2026-0001" });
    const [row] = await queryRows<{ issued_by: string }>(
      deps.db,
      sql`select issued_by from invoices where id = ${created.body.id}`,
    );
    expect(row!.issued_by).toBe(admin.userId);
  });
});
