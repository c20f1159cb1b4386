import { spawnSync } from "node:child_process";
import { sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { createOrder } from "../../src/modules/payments/service/orders";
import { type AuditRow, auditRows, auditRowsOfRequest, newRequestId } from "../support/audit";
import { type CallOptions, call, registerUser, type Session } from "../support/client";
import { createTestContext, onPostgres, registerAdmin } from "../support/harness";
import { payOrder } from "./payments-helpers";

/**
 * Every write under /api/v1/admin leaves exactly one admin_audit_log row, written in the same
 * statement as the change: actor, action, target, the changed fields before and after (never a
 * secret), request id and address. A refused write (404, 409, 422, 402) leaves none.
 */
const ctx = await createTestContext();
const { app, deps } = ctx;

/** The admin budget is 30 requests a minute per admin: each test makes admins of its own. */
async function newAdmin() {
  const session = await registerAdmin(ctx);
  return {
    ...session,
    call: (path: string, options: CallOptions = {}) =>
      call(app, path, { token: session.accessToken, ip: session.ip, ...options }),
  };
}
type Admin = Awaited<ReturnType<typeof newAdmin>>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * One request sent with an X-Request-Id of the caller's, with the audit rows that request left:
 * found by our own request id (the response's X-Request-Id, never the caller's), each holding
 * the caller's id beside it.
 */
async function audited(admin: Admin, path: string, options: CallOptions = {}) {
  const clientId = newRequestId();
  const res = await admin.call(path, {
    ...options,
    headers: { ...options.headers, "X-Request-Id": clientId },
  });
  const requestId = res.res.headers.get("x-request-id")!;
  expect(requestId).toMatch(UUID);
  const audit = await auditRowsOfRequest(deps, requestId);
  expect(await clientIdsOf(requestId)).toEqual(audit.map(() => clientId));
  expect(await auditRowsOfRequest(deps, clientId)).toEqual([]);
  return { ...res, requestId, audit };
}

/** The client_request_id of each audit row of one request (ours), oldest first. */
const clientIdsOf = async (requestId: string) =>
  (
    await queryRows<{ client_request_id: string | null }>(
      deps.db,
      sql`select client_request_id from admin_audit_log where request_id = ${requestId}
          order by created_at, id`,
    )
  ).map((r) => r.client_request_id);

/** The single audit row of an admin write, in full. */
function expectAudited(
  result: Awaited<ReturnType<typeof audited>>,
  admin: Session,
  row: Pick<AuditRow, "action" | "target_type" | "target_id" | "changes">,
) {
  expect(result.status, JSON.stringify(result.body)).toBeLessThan(300);
  expect(result.audit).toEqual([
    { ...row, actor_id: admin.userId, request_id: result.requestId, ip: admin.ip },
  ]);
}

/** A refused write: its status, and no audit row for the request. */
function expectRefused(result: Awaited<ReturnType<typeof audited>>, status: number) {
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  expect(result.audit).toEqual([]);
}

const created = (values: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { before: null, after: v }]));

async function paidOrder(user: Session, packageId: string) {
  const order = await createOrder(deps, {
    userId: user.userId,
    item: { kind: "credits", packageId },
    payType: "alipay",
  });
  await payOrder(deps, order);
  return order;
}

const uniqueCode = () => `a${Math.random().toString(36).slice(2, 10)}`;
const uniqueName = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;

describe("audit rows of admin writes", () => {
  it("user PATCH: the changed fields only, before and after", async () => {
    const admin = await newAdmin();
    const user = await registerUser(app);
    const res = await audited(admin, `/api/v1/admin/users/${user.userId}`, {
      method: "PATCH",
      json: { status: "disabled", role: "user" },
    });
    expect(res.body.status).toBe("disabled");
    // role was sent but did not change: it is not in the row.
    expectAudited(res, admin, {
      action: "user.update",
      target_type: "user",
      target_id: user.userId,
      changes: { status: { before: "active", after: "disabled" } },
    });
    const expiry = "2031-01-02T03:04:05.000Z";
    const plan = await audited(admin, `/api/v1/admin/users/${user.userId}`, {
      method: "PATCH",
      json: { plan: "free", plan_expires_at: expiry },
    });
    const changes = plan.audit[0]!.changes;
    expect(Object.keys(changes).sort()).toEqual(["plan", "plan_expires_at"]);
    expect(changes.plan).toEqual({ before: "pro", after: "free" });
    expect(Date.parse(String(changes.plan_expires_at!.after))).toBe(Date.parse(expiry));
  });

  it("credit adjustment: the balance before and after, and the reason", async () => {
    const admin = await newAdmin();
    const user = await registerUser(app);
    const path = `/api/v1/admin/credit-users/${user.userId}/adjust`;
    const add = await audited(admin, path, { json: { delta: 20, reason: "Goodwill" } });
    expect(add.body.balance).toBe(50);
    expectAudited(add, admin, {
      action: "credit.adjust",
      target_type: "user",
      target_id: user.userId,
      changes: {
        balance: { before: 30, after: 50 },
        reason: { before: null, after: "Goodwill" },
      },
    });
    const remove = await audited(admin, path, { json: { delta: -45, reason: "Chargeback" } });
    expect(remove.audit[0]!.changes.balance).toEqual({ before: 50, after: 5 });
  });

  it("credit packages: create, PATCH, retire", async () => {
    const admin = await newAdmin();
    const create = await audited(admin, "/api/v1/admin/credit-packages", {
      json: { name: "Audit 50", credits: 50, price: 500 },
    });
    expect(create.status).toBe(201);
    const id = create.body.id as string;
    expectAudited(create, admin, {
      action: "credit_package.create",
      target_type: "credit_package",
      target_id: id,
      changes: created({
        name: "Audit 50",
        credits: 50,
        price: 500,
        currency: "CNY",
        active: true,
        sort_order: 0,
      }),
    });
    const patch = await audited(admin, `/api/v1/admin/credit-packages/${id}`, {
      method: "PATCH",
      json: { price: 450, credits: 50 },
    });
    expectAudited(patch, admin, {
      action: "credit_package.update",
      target_type: "credit_package",
      target_id: id,
      changes: { price: { before: 500, after: 450 } },
    });
    const retire = await audited(admin, `/api/v1/admin/credit-packages/${id}`, {
      method: "DELETE",
    });
    expectAudited(retire, admin, {
      action: "credit_package.retire",
      target_type: "credit_package",
      target_id: id,
      changes: { active: { before: true, after: false } },
    });
  });

  it("subscription plans: create, PATCH, retire", async () => {
    const admin = await newAdmin();
    const code = uniqueCode();
    const create = await audited(admin, "/api/v1/admin/credit-plans", {
      json: {
        code,
        name: "Audit plan",
        monthly_price: 1000,
        monthly_credits: 100,
        tier: 1,
        features: ["crm"],
      },
    });
    const id = create.body.id as string;
    expect(create.audit).toHaveLength(1);
    expect(create.audit[0]).toMatchObject({ action: "credit_plan.create", target_id: id });
    expect(create.audit[0]!.changes).toMatchObject({
      code: { before: null, after: code },
      features: { before: null, after: ["crm"] },
    });
    const patch = await audited(admin, `/api/v1/admin/credit-plans/${id}`, {
      method: "PATCH",
      json: { features: ["crm", "agent"], monthly_price: 1200 },
    });
    expectAudited(patch, admin, {
      action: "credit_plan.update",
      target_type: "credit_plan",
      target_id: id,
      changes: {
        features: { before: ["crm"], after: ["crm", "agent"] },
        monthly_price: { before: 1000, after: 1200 },
      },
    });
    const retire = await audited(admin, `/api/v1/admin/credit-plans/${id}`, { method: "DELETE" });
    expect(retire.audit[0]).toMatchObject({
      action: "credit_plan.retire",
      changes: { active: { before: true, after: false } },
    });
  });

  it("refund: the refund asked for, on the order", async () => {
    const admin = await newAdmin();
    const user = await registerUser(app);
    const pkg = await admin.call("/api/v1/admin/credit-packages", {
      json: { name: "Refundable", credits: 100, price: 1000 },
    });
    const order = await paidOrder(user, pkg.body.id);
    const res = await audited(admin, `/api/v1/admin/payments/${order.order_no}/refund`, {
      json: { amount: 400, reason: "Partly unhappy" },
    });
    expect(res.status).toBe(200);
    expectAudited(res, admin, {
      action: "payment.refund",
      target_type: "payment",
      target_id: order.order_no,
      changes: created({ refund_no: res.body.refund_no, amount: 400, reason: "Partly unhappy" }),
    });
  });

  it("system config PUT: the value before and after", async () => {
    const admin = await newAdmin();
    const res = await audited(admin, "/api/v1/admin/system-config/customers.silence_days", {
      method: "PUT",
      json: { value: 21 },
    });
    expectAudited(res, admin, {
      action: "system_config.update",
      target_type: "system_config",
      target_id: "customers.silence_days",
      changes: { value: { before: 14, after: 21 } },
    });
    const same = await audited(admin, "/api/v1/admin/system-config/customers.silence_days", {
      method: "PUT",
      json: { value: 21 },
    });
    // A write that changed nothing is still recorded, with no changed fields.
    expect(same.audit.map((r) => r.changes)).toEqual([{}]);
  });

  it("AI providers and routing: the key is never in the row", async () => {
    const admin = await newAdmin();
    const apiKey = "sk-audit-secret-0123456789-QRST";
    const name = uniqueName("llm");
    const create = await audited(admin, "/api/v1/admin/ai-providers", {
      json: {
        name,
        kind: "llm",
        base_url: "https://llm.example.com/v1",
        api_key: apiKey,
        models: ["m1"],
      },
    });
    const id = create.body.id as string;
    expect(create.audit).toHaveLength(1);
    expect(create.audit[0]).toMatchObject({ action: "ai_provider.create", target_id: id });
    expect(create.audit[0]!.changes.api_key).toEqual({ before: null, after: "set" });
    const patch = await audited(admin, `/api/v1/admin/ai-providers/${id}`, {
      method: "PATCH",
      json: { api_key: "sk-audit-rotated-0123456789-UVWX", enabled: false },
    });
    expectAudited(patch, admin, {
      action: "ai_provider.update",
      target_type: "ai_provider",
      target_id: id,
      changes: {
        api_key: { before: "set", after: "replaced" },
        enabled: { before: true, after: false },
      },
    });
    const [key] = await queryRows<{ ciphertext: string }>(
      deps.db,
      sql`select api_key_ciphertext as ciphertext from ai_providers where id = ${id}`,
    );
    const stored = JSON.stringify(await auditRows(deps, "ai_provider.update", id));
    for (const secret of [apiKey, "sk-audit-rotated", "QRST", "UVWX", key!.ciphertext]) {
      expect(stored).not.toContain(secret);
    }
    const routing = await audited(admin, "/api/v1/admin/ai-routing", {
      method: "PUT",
      json: { chat: [name] },
    });
    expectAudited(routing, admin, {
      action: "ai_routing.update",
      target_type: "system_config",
      target_id: "ai.routing",
      changes: { chat: { before: [], after: [name] } },
    });
    await admin.call("/api/v1/admin/ai-routing", { method: "PUT", json: {} });
  });

  it("search providers, FAQ and translation quotas", async () => {
    const admin = await newAdmin();
    const search = await audited(admin, "/api/v1/admin/search-providers", {
      json: {
        name: uniqueName("brave"),
        kind: "brave",
        base_url: "https://api.search.brave.com",
        api_key: "BSA-audit-secret-0123456789",
      },
    });
    expect(search.audit).toHaveLength(1);
    expect(search.audit[0]).toMatchObject({
      action: "search_provider.create",
      target_type: "search_provider",
      target_id: search.body.id,
      actor_id: admin.userId,
    });
    expect(search.audit[0]!.changes.api_key).toEqual({ before: null, after: "set" });
    expect(JSON.stringify(search.audit)).not.toContain("BSA-audit-secret");
    const searchPatch = await audited(admin, `/api/v1/admin/search-providers/${search.body.id}`, {
      method: "PATCH",
      json: { timeout_ms: 9000 },
    });
    expectAudited(searchPatch, admin, {
      action: "search_provider.update",
      target_type: "search_provider",
      target_id: search.body.id,
      changes: { timeout_ms: { before: 15_000, after: 9000 } },
    });

    const faq = await audited(admin, "/api/v1/admin/faq", {
      json: { question: "MOQ?", answer: "500 pieces." },
    });
    expect(faq.audit[0]).toMatchObject({ action: "faq.create", target_id: faq.body.id });
    const faqPatch = await audited(admin, `/api/v1/admin/faq/${faq.body.id}`, {
      method: "PATCH",
      json: { answer: "300 pieces." },
    });
    expectAudited(faqPatch, admin, {
      action: "faq.update",
      target_type: "faq",
      target_id: faq.body.id,
      changes: { answer: { before: "500 pieces.", after: "300 pieces." } },
    });

    const mt = await admin.call("/api/v1/admin/ai-providers", {
      json: { name: uniqueName("mt"), kind: "mt", base_url: "https://api.deepl.com" },
    });
    const quota = await audited(admin, "/api/v1/admin/translation-quotas", {
      json: { provider_id: mt.body.id, period: "day", char_limit: 1000 },
    });
    expect(quota.audit[0]).toMatchObject({
      action: "translation_quota.create",
      target_id: quota.body.id,
      changes: { char_limit: { before: null, after: 1000 } },
    });
    const quotaPatch = await audited(admin, `/api/v1/admin/translation-quotas/${quota.body.id}`, {
      method: "PATCH",
      json: { char_limit: 2000 },
    });
    expectAudited(quotaPatch, admin, {
      action: "translation_quota.update",
      target_type: "translation_quota",
      target_id: quota.body.id,
      changes: { char_limit: { before: 1000, after: 2000 } },
    });
  });

  it("certification approve and reject, invoice issue", async () => {
    const admin = await newAdmin();
    const submit = async (user: Session) => {
      const res = await call(app, "/api/v1/certification", {
        token: user.accessToken,
        csrf: user.csrfToken,
        json: {
          company_name: "Ningbo Export Co.",
          license_no: "91330200MA2AB12345",
          contact_name: "Li Wei",
          contact_phone: "+86 138 0000 0000",
        },
      });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    const first = await submit(await registerUser(app));
    const approve = await audited(admin, `/api/v1/admin/certifications/${first}/approve`, {
      method: "POST",
    });
    expectAudited(approve, admin, {
      action: "certification.approve",
      target_type: "certification",
      target_id: first,
      changes: { status: { before: "pending", after: "approved" } },
    });
    const second = await submit(await registerUser(app));
    const reject = await audited(admin, `/api/v1/admin/certifications/${second}/reject`, {
      json: { reason: "Licence unreadable" },
    });
    expectAudited(reject, admin, {
      action: "certification.reject",
      target_type: "certification",
      target_id: second,
      changes: {
        status: { before: "pending", after: "rejected" },
        reject_reason: { before: null, after: "Licence unreadable" },
      },
    });

    const user = await registerUser(app);
    const [pkg] = (await call(app, "/api/v1/credits/packages")).body.items;
    const order = await paidOrder(user, pkg.id);
    const invoice = await call(app, "/api/v1/invoices", {
      token: user.accessToken,
      csrf: user.csrfToken,
      json: {
        order_no: order.order_no,
        title: "Ningbo Export Co.",
        tax_number: "91330200MA2AB12345",
        email: "finance@example.com",
      },
    });
    expect(invoice.status).toBe(201);
    const issue = await audited(admin, `/api/v1/admin/invoices/${invoice.body.id}/issue`, {
      json: { invoice_number: "INV-AUDIT-1" },
    });
    expectAudited(issue, admin, {
      action: "invoice.issue",
      target_type: "invoice",
      target_id: invoice.body.id,
      changes: {
        status: { before: "requested", after: "issued" },
        invoice_number: { before: null, after: "INV-AUDIT-1" },
      },
    });
  });

  it("a refused write (404, 409, 422, 402) leaves no audit row", async () => {
    const admin = await newAdmin();
    const ghost = crypto.randomUUID();
    const user = await registerUser(app);
    const plan = await admin.call("/api/v1/admin/credit-plans", {
      json: { code: uniqueCode(), name: "Taken", monthly_price: 1, monthly_credits: 1, tier: 1 },
    });
    const cases: [string, CallOptions, number][] = [
      [`/api/v1/admin/users/${ghost}`, { method: "PATCH", json: { status: "disabled" } }, 404],
      [`/api/v1/admin/users/${user.userId}`, { method: "PATCH", json: {} }, 422],
      [`/api/v1/admin/credit-users/${ghost}/adjust`, { json: { delta: 5, reason: "nobody" } }, 404],
      [
        `/api/v1/admin/credit-users/${ghost}/adjust`,
        { json: { delta: -5, reason: "nobody" } },
        404,
      ],
      [
        `/api/v1/admin/credit-users/${user.userId}/adjust`,
        { json: { delta: -31, reason: "too much" } },
        402,
      ],
      [`/api/v1/admin/credit-packages/${ghost}`, { method: "PATCH", json: { name: "x" } }, 404],
      [`/api/v1/admin/credit-packages/${ghost}`, { method: "DELETE" }, 404],
      [
        "/api/v1/admin/credit-plans",
        {
          json: {
            code: plan.body.code,
            name: "Dup",
            monthly_price: 1,
            monthly_credits: 1,
            tier: 1,
          },
        },
        409,
      ],
      [`/api/v1/admin/credit-plans/${plan.body.id}`, { method: "PATCH", json: {} }, 422],
      [`/api/v1/admin/credit-plans/${ghost}`, { method: "PATCH", json: { name: "x" } }, 404],
      ["/api/v1/admin/payments/NOSUCHORDER/refund", { json: { reason: "x" } }, 404],
      ["/api/v1/admin/system-config/trial.days", { method: "PUT", json: { value: -1 } }, 422],
      ["/api/v1/admin/system-config/no.such.key", { method: "PUT", json: { value: 1 } }, 404],
      [`/api/v1/admin/faq/${ghost}`, { method: "PATCH", json: { answer: "x" } }, 404],
      [`/api/v1/admin/certifications/${ghost}/approve`, { method: "POST" }, 404],
      [`/api/v1/admin/invoices/${ghost}/issue`, { json: { invoice_number: "X" } }, 404],
      ["/api/v1/admin/ai-routing", { method: "PUT", json: { chat: ["nobody"] } }, 422],
    ];
    for (const [path, options, status] of cases) {
      expectRefused(await audited(admin, path, options), status);
    }
  });

  it("a second review or a repeated issue (409) leaves no audit row", async () => {
    const admin = await newAdmin();
    const seller = await registerUser(app);
    const cert = await call(app, "/api/v1/certification", {
      token: seller.accessToken,
      csrf: seller.csrfToken,
      json: {
        company_name: "Ningbo Export Co.",
        license_no: "91330200MA2AB12345",
        contact_name: "Li Wei",
        contact_phone: "+86 138 0000 0000",
      },
    });
    const path = `/api/v1/admin/certifications/${cert.body.id}`;
    expect((await admin.call(`${path}/approve`, { method: "POST" })).status).toBe(200);
    expectRefused(await audited(admin, `${path}/approve`, { method: "POST" }), 409);
    expectRefused(await audited(admin, `${path}/reject`, { json: { reason: "late" } }), 409);
    const name = uniqueName("llm");
    const body = { name, kind: "llm", base_url: "https://llm.example.com/v1", models: ["m"] };
    expect((await admin.call("/api/v1/admin/ai-providers", { json: body })).status).toBe(201);
    expectRefused(await audited(admin, "/api/v1/admin/ai-providers", { json: body }), 409);
    expect(await auditRows(deps, "certification.approve", cert.body.id)).toHaveLength(1);
  });
});

describe("PATCH changes only the fields sent", () => {
  it("a retired package renamed stays retired and out of the public catalogue", async () => {
    const admin = await newAdmin();
    const pkg = await admin.call("/api/v1/admin/credit-packages", {
      json: { name: "Old pack", credits: 10, price: 100, currency: "USD", sort_order: 7 },
    });
    const id = pkg.body.id as string;
    expect(
      (await admin.call(`/api/v1/admin/credit-packages/${id}`, { method: "DELETE" })).status,
    ).toBe(200);
    const renamed = await audited(admin, `/api/v1/admin/credit-packages/${id}`, {
      method: "PATCH",
      json: { name: "Old pack (legacy)" },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      name: "Old pack (legacy)",
      active: false,
      currency: "USD",
      sort_order: 7,
    });
    expect(renamed.audit.map((r) => r.changes)).toEqual([
      { name: { before: "Old pack", after: "Old pack (legacy)" } },
    ]);
    const catalogue = await call(app, "/api/v1/credits/packages");
    expect(catalogue.body.items.map((p: { id: string }) => p.id)).not.toContain(id);
  });

  it("a plan renamed keeps its features, currency, state and order", async () => {
    const admin = await newAdmin();
    const plan = await admin.call("/api/v1/admin/credit-plans", {
      json: {
        code: uniqueCode(),
        name: "Growth",
        currency: "USD",
        monthly_price: 4900,
        monthly_credits: 800,
        tier: 2,
        features: ["crm", "agent"],
        sort_order: 4,
        active: false,
      },
    });
    const renamed = await admin.call(`/api/v1/admin/credit-plans/${plan.body.id}`, {
      method: "PATCH",
      json: { name: "Growth+" },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...plan.body, name: "Growth+", updated_at: expect.any(String) });
  });

  it("an empty PATCH is 422 and changes nothing", async () => {
    const admin = await newAdmin();
    const pkg = await admin.call("/api/v1/admin/credit-packages", {
      json: { name: "Keep", credits: 10, price: 100 },
    });
    const plan = await admin.call("/api/v1/admin/credit-plans", {
      json: { code: uniqueCode(), name: "Keep", monthly_price: 1, monthly_credits: 1, tier: 1 },
    });
    for (const path of [
      `/api/v1/admin/credit-packages/${pkg.body.id}`,
      `/api/v1/admin/credit-plans/${plan.body.id}`,
    ]) {
      const res = await admin.call(path, { method: "PATCH", json: {} });
      expect(res.status, path).toBe(422);
    }
    const after = await admin.call("/api/v1/admin/credit-packages");
    expect(after.body.items.find((p: { id: string }) => p.id === pkg.body.id)).toEqual(pkg.body);
  });
});

describe("GET /api/v1/admin/audit-log", () => {
  it("lists newest first with the actor's e-mail, filters and pages", async () => {
    const admin = await newAdmin();
    const other = await newAdmin();
    const pkg = await admin.call("/api/v1/admin/credit-packages", {
      json: { name: "Listed", credits: 1, price: 1 },
    });
    const id = pkg.body.id as string;
    await admin.call(`/api/v1/admin/credit-packages/${id}`, {
      method: "PATCH",
      json: { price: 2 },
    });
    await other.call(`/api/v1/admin/credit-packages/${id}`, { method: "DELETE" });

    const byTarget = await admin.call(
      `/api/v1/admin/audit-log?target_type=credit_package&target_id=${id}`,
    );
    expect(byTarget.status).toBe(200);
    expect(byTarget.body).toMatchObject({ total: 3, page: 1, size: 20 });
    expect(byTarget.body.items.map((r: { action: string }) => r.action)).toEqual([
      "credit_package.retire",
      "credit_package.update",
      "credit_package.create",
    ]);
    expect(byTarget.body.items[1]).toEqual({
      id: expect.any(String),
      actor_id: admin.userId,
      actor_email: admin.email,
      action: "credit_package.update",
      target_type: "credit_package",
      target_id: id,
      changes: { price: { before: 1, after: 2 } },
      request_id: expect.stringMatching(UUID),
      client_request_id: null,
      ip: admin.ip,
      created_at: expect.any(String),
    });
    expect(byTarget.body.items[0].actor_email).toBe(other.email);

    const byActor = await admin.call(`/api/v1/admin/audit-log?actor_id=${other.userId}`);
    expect(byActor.body.items.map((r: { target_id: string }) => r.target_id)).toEqual([id]);
    const byAction = await admin.call(
      `/api/v1/admin/audit-log?action=credit_package.update&target_id=${id}`,
    );
    expect(byAction.body.total).toBe(1);
    const paged = await admin.call(`/api/v1/admin/audit-log?target_id=${id}&size=2&page=2`);
    expect(paged.body).toMatchObject({ total: 3, page: 2, size: 2 });
    expect(paged.body.items.map((r: { action: string }) => r.action)).toEqual([
      "credit_package.create",
    ]);
    const today = new Date().toISOString().slice(0, 10);
    const inRange = await admin.call(
      `/api/v1/admin/audit-log?target_id=${id}&start_date=${today}&end_date=${today}`,
    );
    expect(inRange.body.total).toBe(3);
    const before = await admin.call(`/api/v1/admin/audit-log?target_id=${id}&end_date=2020-01-01`);
    expect(before.body).toMatchObject({ total: 0, items: [] });
  });

  it("is for admins only and validates its filters", async () => {
    const admin = await newAdmin();
    const user = await registerUser(app);
    expect((await call(app, "/api/v1/admin/audit-log", { token: user.accessToken })).status).toBe(
      403,
    );
    expect((await call(app, "/api/v1/admin/audit-log")).status).toBe(401);
    for (const query of [
      "actor_id=nope",
      "start_date=2026-13-01",
      "start_date=2026-05-02&end_date=2026-05-01",
      "size=1001",
      "page=0",
    ]) {
      const res = await admin.call(`/api/v1/admin/audit-log?${query}`);
      expect(res.status, query).toBe(422);
    }
  });
});

// PostgreSQL only: the first test holds a row lock from a second session (pg_stat_activity shows
// the PATCH waiting on it), the second runs admin:grant as another process on DATABASE_URL;
// PGlite in memory has one connection and no URL.
describe.runIf(onPostgres)("on PostgreSQL", () => {
  it("records the value a write replaced, even one committed after the statement began", async () => {
    const admin = await newAdmin();
    const plan = await admin.call("/api/v1/admin/credit-plans", {
      json: { code: uniqueCode(), name: "Original", monthly_price: 1, monthly_credits: 1, tier: 1 },
    });
    const url = (ctx.database as { url?: string }).url!;
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query("begin");
      await holder.query("update subscription_plans set name = 'Concurrent' where id = $1", [
        plan.body.id,
      ]);
      const patch = audited(admin, `/api/v1/admin/credit-plans/${plan.body.id}`, {
        method: "PATCH",
        json: { name: "Admin's" },
      });
      // Wait until the PATCH is blocked on the row, then let the other write commit.
      for (let i = 0; i < 100; i++) {
        const { rows } = await holder.query(
          "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
        );
        if (rows[0].n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await holder.query("commit");
      const res = await patch;
      expect(res.status).toBe(200);
      expect(res.audit.map((r) => r.changes)).toEqual([
        { name: { before: "Concurrent", after: "Admin's" } },
      ]);
    } finally {
      await holder.end();
    }
  });

  it("npm run admin:grant writes its audit row (no actor, request id cli)", async () => {
    const user = await registerUser(app);
    const url = (ctx.database as { url?: string }).url!;
    const grant = spawnSync(
      process.execPath,
      ["--import", "tsx", "src/runtime/admin-grant.ts", user.email],
      { env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: "warn" }, encoding: "utf8" },
    );
    expect(grant.status, grant.stderr).toBe(0);
    expect(await auditRows(deps, "user.role_grant", user.userId)).toEqual([
      {
        actor_id: null,
        action: "user.role_grant",
        target_type: "user",
        target_id: user.userId,
        changes: { role: { before: "user", after: "admin" } },
        request_id: "cli",
        ip: null,
      },
    ]);
  }, 30_000);
});
