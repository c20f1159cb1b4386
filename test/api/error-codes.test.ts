import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../src/http/errors";
import { call, randomIp, registerUser, type Session } from "../support/client";
import { createTestContext } from "../support/harness";
import { setPlan } from "../support/plans";

/**
 * Every error body carries a stable `code` beside `detail` (docs/API.md, "Error codes";
 * docs/adr/0093-one-http-error-contract.md). The 403s that differed only in English text each
 * get their own code, and the OpenAPI document declares one shared error schema whose `code` is
 * the enum, referenced by every error response.
 */
const ctx = await createTestContext();
const { app, deps } = ctx;

/** A write of a cookie session: the CSRF rule applies (docs/adr/0058). */
const cookieWrite = (user: Session, cookie: string | undefined, header: string | undefined) =>
  call(app, "/api/v1/customers", {
    json: { company: "Acme" },
    cookies: { access_token: user.accessToken, ...(cookie ? { csrf_token: cookie } : {}) },
    csrf: header,
    ip: user.ip,
  });

describe("each 403 says which refusal it is", () => {
  it("csrf_missing: a cookie session's write without the header", async () => {
    const user = await registerUser(app);
    const { status, body } = await cookieWrite(user, user.csrfToken, undefined);
    expect(status).toBe(403);
    expect(body).toMatchObject({ code: "csrf_missing", detail: "CSRF token missing" });
  });

  it("csrf_mismatch: the header and the cookie differ", async () => {
    const user = await registerUser(app);
    const other = await registerUser(app);
    const { status, body } = await cookieWrite(user, user.csrfToken, other.csrfToken);
    expect(status).toBe(403);
    expect(body).toMatchObject({ code: "csrf_mismatch", detail: "CSRF token mismatch" });
  });

  it("csrf_invalid: the same forged value in both", async () => {
    const user = await registerUser(app);
    const { status, body } = await cookieWrite(user, "forged.value", "forged.value");
    expect(status).toBe(403);
    expect(body).toMatchObject({ code: "csrf_invalid" });
  });

  it("admin_required: a seller on an admin route", async () => {
    const user = await registerUser(app);
    const { status, body } = await call(app, "/api/v1/admin/users", { token: user.accessToken });
    expect(status).toBe(403);
    expect(body).toMatchObject({ code: "admin_required", detail: "Admin rights required" });
  });

  it("guest_not_allowed: a guest asking for a referral link", async () => {
    const guest = await call(app, "/api/v1/auth/guest", { method: "POST", ip: randomIp() });
    expect(guest.status).toBe(201);
    const { status, body } = await call(app, "/api/v1/referrals", {
      token: guest.body.access_token,
    });
    expect(status).toBe(403);
    expect(body).toMatchObject({ code: "guest_not_allowed" });
  });

  it("feature_not_in_plan: a free seller starting the agent", async () => {
    const user = await registerUser(app);
    await setPlan(deps, user.userId, "free", null);
    const { status, body } = await call(app, "/agent/start", {
      token: user.accessToken,
      json: { product: "LED lamps", market: "Germany" },
    });
    expect(status).toBe(403);
    expect(body).toMatchObject({ code: "feature_not_in_plan", feature: "agent" });
  });

  it("account_disabled: a disabled account signing in", async () => {
    const user = await registerUser(app);
    await ctx.database.db.execute(
      sql`update users set status = 'disabled' where id = ${user.userId}`,
    );
    const { status, body } = await call(app, "/api/v1/auth/login", {
      json: { email: user.email, password: user.password },
      ip: user.ip,
    });
    expect(status).toBe(403);
    expect(body).toMatchObject({ code: "account_disabled" });
  });

  it("the codes of these 403s are all different", async () => {
    const codes = [
      "csrf_missing",
      "csrf_mismatch",
      "csrf_invalid",
      "admin_required",
      "guest_not_allowed",
      "feature_not_in_plan",
      "plan_limit_reached",
      "member_limit_reached",
      "account_disabled",
    ];
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(ERROR_CODES).toContain(code);
  });
});

describe("every error has a code", () => {
  it("not_found, unauthorized, validation_failed, insufficient_credits", async () => {
    const user = await registerUser(app);
    const missing = await call(app, "/api/v1/nothing-here");
    expect(missing.body).toEqual({ detail: "Not found", code: "not_found" });
    const anonymous = await call(app, "/api/v1/customers");
    expect(anonymous.body.code).toBe("unauthorized");
    const invalid = await call(app, "/api/v1/customers", { token: user.accessToken, json: {} });
    expect(invalid.status).toBe(422);
    expect(invalid.body.code).toBe("validation_failed");
  });
});

type Json = Record<string, any>;

/** Whether a schema is the Error component, extends it, or is a choice among such schemas. */
function errorSchemaTest(schemas: Record<string, Json>) {
  const isError = (schema: Json | undefined): boolean => {
    if (!schema) return false;
    if (schema.$ref === "#/components/schemas/Error") return true;
    if (typeof schema.$ref === "string") {
      return isError(schemas[schema.$ref.replace("#/components/schemas/", "")]);
    }
    if (schema.allOf) return schema.allOf.some(isError);
    // A route that can refuse in two shapes (import: rows or fields): each must be one.
    const options = schema.anyOf ?? schema.oneOf;
    return Array.isArray(options) && options.every(isError);
  };
  return isError;
}

/** Every JSON body of a 4xx or 5xx response in the document. */
function errorResponses(doc: Json) {
  const out: { label: string; path: string; status: string; json: Json }[] = [];
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    for (const [method, operation] of Object.entries<Json>(item)) {
      for (const [status, response] of Object.entries<Json>(operation.responses ?? {})) {
        const json = response.content?.["application/json"];
        if (Number(status) >= 400 && json) {
          out.push({ label: `${method.toUpperCase()} ${path}`, path, status, json });
        }
      }
    }
  }
  return out;
}

describe("the OpenAPI document", () => {
  it("declares one Error schema whose code is the enum of every code", async () => {
    const { body: doc } = await call(app, "/api/v1/openapi.json");
    const error = doc.components.schemas.Error;
    expect(error.required).toEqual(expect.arrayContaining(["detail", "code"]));
    expect(error.properties.code.enum).toEqual([...ERROR_CODES]);
  });

  it("every error response's body is the Error schema or extends it", async () => {
    const { body: doc } = await call(app, "/api/v1/openapi.json");
    const isError = errorSchemaTest(doc.components.schemas);
    const offenders: string[] = [];
    let checked = 0;
    for (const { label, path, status, json } of errorResponses(doc)) {
      // The payment gateway's callback answers in the gateway's own protocol
      // (docs/payment-gateway.md: `{code: "FAIL", detail}`), which its sender parses.
      if (path === "/api/v1/payments/callback") continue;
      checked++;
      if (!isError(json.schema)) offenders.push(`${label} ${status}`);
    }
    expect(checked).toBeGreaterThan(500);
    expect(offenders).toEqual([]);
  });
});
