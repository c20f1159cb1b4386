import { describe, expect, it } from "vitest";
import { call, randomEmail, registerUser } from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";

const adminEmail = randomEmail();
const ctx = await createTestContext();
const { app } = ctx;
const admin = await registerAdmin(ctx, { email: adminEmail });
const asAdmin = (path: string, options: Parameters<typeof call>[2] = {}) =>
  call(app, path, { token: admin.accessToken, ...options });

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

    const first = await submit(details);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ ...details, status: "pending", reject_reason: null });
    expect((await submit(details)).status).toBe(409);
    expect((await submit({ ...details, contact_phone: "call me" })).status).toBe(422);

    const pending = await asAdmin("/api/v1/admin/certifications?status=pending");
    expect(pending.body.items).toContainEqual(
      expect.objectContaining({ id: first.body.id, user_id: user.userId, email: user.email }),
    );

    const rejected = await asAdmin(`/api/v1/admin/certifications/${first.body.id}/reject`, {
      json: { reason: "Licence number unreadable" },
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({
      status: "rejected",
      reject_reason: "Licence number unreadable",
    });
    const rejectAgain = await asAdmin(`/api/v1/admin/certifications/${first.body.id}/reject`, {
      json: { reason: "Again" },
    });
    expect(rejectAgain.status).toBe(409);
    let mine = await call(app, "/api/v1/certification", { token: user.accessToken });
    expect(mine.body.status).toBe("rejected");

    const resubmitted = await submit({ ...details, license_no: "91330200MA2AB99999" });
    expect(resubmitted.status).toBe(201);
    expect(resubmitted.body).toMatchObject({
      id: first.body.id,
      status: "pending",
      reject_reason: null,
      reviewed_at: null,
      license_no: "91330200MA2AB99999",
    });

    const approved = await asAdmin(`/api/v1/admin/certifications/${first.body.id}/approve`, {
      method: "POST",
    });
    expect(approved.status).toBe(200);
    expect(approved.body.status).toBe("approved");
    expect((await submit(details)).status).toBe(409);
    expect(
      (await asAdmin(`/api/v1/admin/certifications/${first.body.id}/approve`, { method: "POST" }))
        .status,
    ).toBe(409);
    mine = await call(app, "/api/v1/certification", { token: user.accessToken });
    expect(mine.body).toMatchObject({ status: "approved", license_no: "91330200MA2AB99999" });

    const notes = await call(app, "/api/v1/notifications", { token: user.accessToken });
    expect(notes.body.items.map((n: { kind: string }) => n.kind)).toEqual([
      "certification_approved",
      "certification_rejected",
    ]);
    expect(notes.body.items[1].body).toContain("Licence number unreadable");

    const approvedList = await asAdmin("/api/v1/admin/certifications?status=approved");
    expect(approvedList.body.items.map((c: { id: string }) => c.id)).toContain(first.body.id);
    const pendingAfter = await asAdmin("/api/v1/admin/certifications?status=pending");
    expect(pendingAfter.body.items.map((c: { id: string }) => c.id)).not.toContain(first.body.id);
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
