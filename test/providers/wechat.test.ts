import { createHash } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  createWechatClient,
  verifyWechatSignature,
  WechatAuthError,
  type WechatClient,
  WechatUnavailableError,
} from "../../src/providers/messaging/wechat";
import { type FakeWechat, startFakeWechat } from "../fakes/wechat";

let fake: FakeWechat;
let client: WechatClient;

beforeAll(async () => {
  fake = await startFakeWechat();
  client = createWechatClient({
    appId: fake.appId,
    appSecret: fake.appSecret,
    apiBase: fake.url,
    timeoutMs: 2000,
  });
});

afterAll(async () => {
  await fake.close();
});

afterEach(() => {
  fake.fail(null);
});

/** Awaits a rejection and returns the error, asserting no secret leaked into it. */
async function rejection(promise: Promise<unknown>, secret = fake.appSecret): Promise<unknown> {
  const err = await promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Error);
  const e = err as Error;
  expect(e.message).not.toContain(secret);
  expect(JSON.stringify(e)).not.toContain(secret);
  expect(String(e.stack)).not.toContain(secret);
  expect(String(e.cause ?? "")).not.toContain(secret);
  return err;
}

describe("createWechatClient().exchangeCode", () => {
  it("exchanges a code for openid and unionid with the real query", async () => {
    const code = fake.issueCode("o6_bmjrPTlm6_2sgVt7hMZOPfL2M", "o6_bmasdasdsad6_2sgVt7hMZOPfL");
    const identity = await client.exchangeCode(code);
    expect(identity).toEqual({
      openid: "o6_bmjrPTlm6_2sgVt7hMZOPfL2M",
      unionid: "o6_bmasdasdsad6_2sgVt7hMZOPfL",
    });
    const q = fake.requests.at(-1)!;
    expect(Object.fromEntries(q)).toEqual({
      appid: fake.appId,
      secret: fake.appSecret,
      code,
      grant_type: "authorization_code",
    });
  });

  it("omits unionid when WeChat does not send one", async () => {
    const identity = await client.exchangeCode(fake.issueCode("openid-without-union"));
    expect(identity).toEqual({ openid: "openid-without-union" });
    expect("unionid" in identity).toBe(false);
  });

  it("keeps a path prefix and tolerates a trailing slash in apiBase", async () => {
    const relayed = createWechatClient({
      appId: fake.appId,
      appSecret: fake.appSecret,
      apiBase: `${fake.url}/`,
    });
    expect(await relayed.exchangeCode(fake.issueCode("o-slash"))).toEqual({ openid: "o-slash" });
    const prefixed = createWechatClient({
      appId: fake.appId,
      appSecret: fake.appSecret,
      apiBase: `${fake.url}/relay`,
    });
    const err = await rejection(prefixed.exchangeCode(fake.issueCode("o-prefix")));
    // The fake only serves the root path, so the prefix reached it (404 -> unavailable).
    expect(err).toMatchObject({
      name: "WechatUnavailableError",
      reason: "http_status",
      status: 404,
    });
  });

  it("refuses a reused code with errcode 40163", async () => {
    const code = fake.issueCode("o-reuse");
    await client.exchangeCode(code);
    const err = await rejection(client.exchangeCode(code));
    expect(err).toBeInstanceOf(WechatAuthError);
    expect(err).toMatchObject({
      errcode: 40163,
      message: "WeChat login code is invalid or expired",
    });
  });

  it("refuses an unknown code with errcode 40029", async () => {
    const err = await rejection(client.exchangeCode("never-issued"));
    expect(err).toBeInstanceOf(WechatAuthError);
    expect(err).toMatchObject({ errcode: 40029 });
  });

  it("refuses an empty code without calling WeChat", async () => {
    const before = fake.requests.length;
    const err = await rejection(client.exchangeCode(""));
    expect(err).toBeInstanceOf(WechatAuthError);
    expect(fake.requests.length).toBe(before);
  });

  it("treats a wrong secret (40125) as our misconfiguration, not the user's code", async () => {
    const wrongSecret = "wrong-secret-value-xyz";
    const misconfigured = createWechatClient({
      appId: fake.appId,
      appSecret: wrongSecret,
      apiBase: fake.url,
    });
    const code = fake.issueCode("o-wrong-secret");
    const err = await rejection(misconfigured.exchangeCode(code), wrongSecret);
    expect(err).toBeInstanceOf(WechatUnavailableError);
    expect(err).toMatchObject({ reason: "rejected", errcode: 40125 });
    expect((err as Error).message).not.toContain(fake.appSecret);
    // The code was not consumed by the failed attempt.
    expect(await client.exchangeCode(code)).toEqual({ openid: "o-wrong-secret" });
  });

  it("treats a wrong appid (40013) as unavailable too", async () => {
    const other = createWechatClient({
      appId: "wx-not-ours",
      appSecret: fake.appSecret,
      apiBase: fake.url,
    });
    const err = await rejection(other.exchangeCode(fake.issueCode("o-appid")));
    expect(err).toMatchObject({
      name: "WechatUnavailableError",
      reason: "rejected",
      errcode: 40013,
    });
  });

  it("maps a server that is down (closed port) to WechatUnavailableError", async () => {
    const gone = await startFakeWechat();
    const url = gone.url;
    await gone.close();
    const down = createWechatClient({ appId: "a", appSecret: fake.appSecret, apiBase: url });
    const err = await rejection(down.exchangeCode("any-code"));
    expect(err).toBeInstanceOf(WechatUnavailableError);
    expect(err).toMatchObject({ reason: "network" });
  });

  it("maps HTTP 502 to WechatUnavailableError", async () => {
    fake.fail("http-502");
    const err = await rejection(client.exchangeCode(fake.issueCode("o-502")));
    expect(err).toBeInstanceOf(WechatUnavailableError);
    expect(err).toMatchObject({ reason: "http_status", status: 502 });
  });

  it("maps a non-JSON 200 answer to WechatUnavailableError", async () => {
    fake.fail("non-json");
    const err = await rejection(client.exchangeCode(fake.issueCode("o-html")));
    expect(err).toBeInstanceOf(WechatUnavailableError);
    expect(err).toMatchObject({ reason: "bad_response" });
  });

  it("maps a server that never answers to a timeout", async () => {
    fake.fail("hang");
    const impatient = createWechatClient({
      appId: fake.appId,
      appSecret: fake.appSecret,
      apiBase: fake.url,
      timeoutMs: 150,
    });
    const started = Date.now();
    const err = await rejection(impatient.exchangeCode(fake.issueCode("o-hang")));
    expect(err).toBeInstanceOf(WechatUnavailableError);
    expect(err).toMatchObject({ reason: "timeout" });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("uses an injected fetch and rejects JSON without an openid", async () => {
    const seen: string[] = [];
    const fakeFetch: typeof fetch = async (input) => {
      seen.push(String(input));
      return new Response(JSON.stringify({ access_token: "x", expires_in: 7200 }), {
        status: 200,
      });
    };
    const injected = createWechatClient({
      appId: "wxid",
      appSecret: "s3cr3t-injected",
      apiBase: "https://api.example.test",
      fetch: fakeFetch,
    });
    const err = await rejection(injected.exchangeCode("c"), "s3cr3t-injected");
    expect(err).toMatchObject({ name: "WechatUnavailableError", reason: "bad_response" });
    expect(seen[0]).toMatch(/^https:\/\/api\.example\.test\/sns\/oauth2\/access_token\?/);
  });
});

describe("verifyWechatSignature", () => {
  // Computed independently with node:crypto, exactly as WeChat's documentation describes.
  function sign(token: string, timestamp: string, nonce: string): string {
    const joined = [token, timestamp, nonce].sort().join("");
    return createHash("sha1").update(joined).digest("hex");
  }

  const token = "wechatToken42";
  const timestamp = "1409304348";
  const nonce = "Zx7nonce";

  it("accepts WeChat's signature", async () => {
    const signature = sign(token, timestamp, nonce);
    expect(await verifyWechatSignature(token, timestamp, nonce, signature)).toBe(true);
    expect(await verifyWechatSignature(token, timestamp, nonce, signature.toUpperCase())).toBe(
      true,
    );
  });

  it("sorts before hashing (argument order alone does not verify)", async () => {
    const unsorted = createHash("sha1").update(`${token}${timestamp}${nonce}`).digest("hex");
    expect(unsorted).not.toBe(sign(token, timestamp, nonce));
    expect(await verifyWechatSignature(token, timestamp, nonce, unsorted)).toBe(false);
  });

  it("rejects wrong token, tampered fields and malformed signatures", async () => {
    const signature = sign(token, timestamp, nonce);
    expect(await verifyWechatSignature("otherToken", timestamp, nonce, signature)).toBe(false);
    expect(await verifyWechatSignature(token, "1409304349", nonce, signature)).toBe(false);
    expect(await verifyWechatSignature(token, timestamp, "nonce2", signature)).toBe(false);
    expect(await verifyWechatSignature(token, timestamp, nonce, signature.slice(0, -1))).toBe(
      false,
    );
    expect(await verifyWechatSignature(token, timestamp, nonce, "")).toBe(false);
    expect(await verifyWechatSignature("", timestamp, nonce, sign("", timestamp, nonce))).toBe(
      false,
    );
  });
});
