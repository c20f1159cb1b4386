import { afterAll, describe, expect, it } from "vitest";
import { startFakeWechat } from "../fakes/wechat";
import { call, expectStatus, randomIp, api as typed } from "../support/client";
import { createTestContext } from "../support/harness";

const wechat = await startFakeWechat();
afterAll(() => wechat.close());
const ctx = await createTestContext({
  env: {
    WECHAT_APP_ID: wechat.appId,
    WECHAT_APP_SECRET: wechat.appSecret,
    WECHAT_API_BASE: wechat.url,
  },
});
const { app } = ctx;
const login = (code: string) =>
  call(app, "/api/v1/auth/wechat/login", { json: { code }, ip: randomIp() });
/** A sign-in that must succeed, typed by the OpenAPI document (ADR 0095). */
const signedIn = (code: string) =>
  typed(app).post("/api/v1/auth/wechat/login", { json: { code }, ip: randomIp() });

describe("WeChat login", () => {
  it("registers on first login (trial and 30 credits) and finds the user after", async () => {
    const openid = `o${crypto.randomUUID().replaceAll("-", "")}`;
    const first = await signedIn(wechat.issueCode(openid, "union-1"));
    expectStatus(first, 200);
    expect(first.body.user).toMatchObject({
      has_wechat: true,
      credits: 30,
      plan: "pro",
      is_trial_active: true,
    });
    expect(wechat.requests.at(-1)?.get("grant_type")).toBe("authorization_code");

    const second = await signedIn(wechat.issueCode(openid));
    expectStatus(second, 200);
    expect(second.body.user.id).toBe(first.body.user.id);
    expect(second.body.user.credits).toBe(30);

    const stats = await typed(app).get("/api/v1/usage/stats", { token: second.body.access_token });
    expectStatus(stats, 200);
    expect(stats.body.by_event).toEqual({ wechat_login: 2 });
  });

  it("answers 401 for a reused or unknown code", async () => {
    const code = wechat.issueCode(`o${crypto.randomUUID()}`);
    expect((await login(code)).status).toBe(200);
    const reused = await login(code);
    expect(reused.status).toBe(401);
    expect(reused.body.detail).toMatch(/invalid or expired/);
    expect((await login("never-issued")).status).toBe(401);
  });

  it("answers 503 without leaking details when WeChat misbehaves", async () => {
    wechat.fail("http-502");
    try {
      const { status, body } = await login(wechat.issueCode("o-any"));
      expect(status).toBe(503);
      expect(JSON.stringify(body)).not.toMatch(/secret|502|rid/i);
    } finally {
      wechat.fail(null);
    }
  });

  it("answers 422 for a missing code", async () => {
    const { status } = await call(app, "/api/v1/auth/wechat/login", { json: {}, ip: randomIp() });
    expect(status).toBe(422);
  });

  it("answers 503 when WeChat is not configured", async () => {
    const bare = await ctx.makeApp({}, { WECHAT_APP_ID: "", WECHAT_APP_SECRET: "" });
    const { status, body } = await call(bare, "/api/v1/auth/wechat/login", {
      json: { code: "abc" },
      ip: randomIp(),
    });
    expect(status).toBe(503);
    expect(body.detail).toMatch(/not configured/);
  });
});
