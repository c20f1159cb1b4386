import { describe, expect, it } from "vitest";
import { call, expectStatus, randomEmail, registerUser, api as typed } from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";

const adminEmail = randomEmail();
const ctx = await createTestContext();
const { app } = ctx;
const admin = await registerAdmin(ctx, { email: adminEmail });
const asAdmin = (path: string, options: Parameters<typeof call>[2] = {}) =>
  call(app, path, { token: admin.accessToken, ...options });
/** The success paths, typed by the OpenAPI document (ADR 0095); error paths stay on `call()`. */
const t = typed(app);
const certifications = async (status: "pending" | "approved" | "rejected") => {
  const answer = await t.get("/api/v1/admin/certifications", {
    token: admin.accessToken,
    query: { status },
  });
  expectStatus(answer, 200);
  return answer;
};

const details = {
  company_name: "Ningbo Export Co.",
  license_no: "91330200MA2AB12345",
  contact_name: "Li Wei",
  contact_phone: "+86 138 0000 0000",
};

describe("certification", () => {
  it("goes pending, 409 while pending, rejected, resubmitted, approved, with notifications", async () => {
    const user = await registerUser(app);
    const submit = (body: object) =>
      call(app, "/api/v1/certification", {
        token: user.accessToken,
        csrf: user.csrfToken,
        json: body,
      });
    expect((await call(app, "/api/v1/certification", { token: user.accessToken })).status).toBe(
      404,
    );
    const noCsrf = await call(app, "/api/v1/certification", {
      token: user.accessToken,
      json: details,
    });
    expect(noCsrf.status).toBe(403);

    const submitted = (json: typeof details) =>
      t.post("/api/v1/certification", { token: user.accessToken, csrf: user.csrfToken, json });
    const first = await submitted(details);
    expectStatus(first, 201);
    expect(first.body).toMatchObject({ ...details, status: "pending", reject_reason: null });
    expect((await submit(details)).status).toBe(409);
    expect((await submit({ ...details, contact_phone: "call me" })).status).toBe(422);

    const pending = await certifications("pending");
    expect(pending.body.items).toContainEqual(
      expect.objectContaining({ id: first.body.id, user_id: user.userId, email: user.email }),
    );

    const rejected = await t.post("/api/v1/admin/certifications/{id}/reject", {
      token: admin.accessToken,
      params: { id: first.body.id },
      json: { reason: "Licence number unreadable" },
    });
    expectStatus(rejected, 200);
    expect(rejected.body).toMatchObject({
      status: "rejected",
      reject_reason: "Licence number unreadable",
    });
    const rejectAgain = await asAdmin(`/api/v1/admin/certifications/${first.body.id}/reject`, {
      json: { reason: "Again" },
    });
    expect(rejectAgain.status).toBe(409);
    const mineNow = async () => {
      const answer = await t.get("/api/v1/certification", { token: user.accessToken });
      expectStatus(answer, 200);
      return answer;
    };
    let mine = await mineNow();
    expect(mine.body.status).toBe("rejected");

    const resubmitted = await submitted({ ...details, license_no: "91330200MA2AB99999" });
    expectStatus(resubmitted, 201);
    expect(resubmitted.body).toMatchObject({
      id: first.body.id,
      status: "pending",
      reject_reason: null,
      reviewed_at: null,
      license_no: "91330200MA2AB99999",
    });

    const approved = await t.post("/api/v1/admin/certifications/{id}/approve", {
      token: admin.accessToken,
      params: { id: first.body.id },
    });
    expectStatus(approved, 200);
    expect(approved.body.status).toBe("approved");
    expect((await submit(details)).status).toBe(409);
    expect(
      (await asAdmin(`/api/v1/admin/certifications/${first.body.id}/approve`, { method: "POST" }))
        .status,
    ).toBe(409);
    mine = await mineNow();
    expect(mine.body).toMatchObject({ status: "approved", license_no: "91330200MA2AB99999" });

    const notes = await t.get("/api/v1/notifications", { token: user.accessToken });
    expectStatus(notes, 200);
    expect(notes.body.items.map((n) => n.kind)).toEqual([
      "certification_approved",
      "certification_rejected",
    ]);
    expect(notes.body.items[1]!.body).toContain("Licence number unreadable");

    const approvedList = await certifications("approved");
    expect(approvedList.body.items.map((c) => c.id)).toContain(first.body.id);
    const pendingAfter = await certifications("pending");
    expect(pendingAfter.body.items.map((c) => c.id)).not.toContain(first.body.id);
  });

  it("answers 404 for an unknown certification and 422 for a bad id", async () => {
    const missing = await asAdmin(`/api/v1/admin/certifications/${crypto.randomUUID()}/approve`, {
      method: "POST",
    });
    expect(missing.status).toBe(404);
    const bad = await asAdmin("/api/v1/admin/certifications/nope/approve", { method: "POST" });
    expect(bad.status).toBe(422);
  });

  it("is refused to guests", async () => {
    const guest = await call(app, "/api/v1/auth/guest", { method: "POST", ip: "198.51.100.7" });
    const res = await call(app, "/api/v1/certification", {
      token: guest.body.access_token,
      csrf: guest.body.csrf_token,
      json: details,
    });
    expect(res.status).toBe(403);
  });

  it("admin routes are 403 for a plain user", async () => {
    const user = await registerUser(app);
    const id = crypto.randomUUID();
    for (const [method, path, json] of [
      ["GET", "/api/v1/admin/certifications", undefined],
      ["POST", `/api/v1/admin/certifications/${id}/approve`, undefined],
      ["POST", `/api/v1/admin/certifications/${id}/reject`, { reason: "no" }],
      ["GET", "/api/v1/admin/invoices", undefined],
      ["POST", `/api/v1/admin/invoices/${id}/issue`, { invoice_number: "X1" }],
    ] as const) {
      const { status } = await call(app, path, { method, token: user.accessToken, json });
      expect(status, path).toBe(403);
    }
  });
});
