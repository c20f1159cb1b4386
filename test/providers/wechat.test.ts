import { createCipheriv, createHash, randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  createWechatClient,
  createWechatTemplateSender,
  decryptWechatMessage,
  encryptWechatMessage,
  importWechatAesKey,
  truncateThing,
  verifyWechatMessageSignature,
  verifyWechatSignature,
  WechatAuthError,
  type WechatClient,
  WechatCryptoError,
  WechatPushError,
  type WechatTemplateSender,
  WechatUnavailableError,
  wechatMessageSignature,
  wechatTime,
} from "../../src/providers/messaging/wechat";
import { type FakeWechat, startFakeWechat, wechatPusher } from "../fakes/wechat";

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
  fake.push.reset();
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

describe("createWechatTemplateSender", () => {
  let wall = 1_750_000_000_000;
  const makeSender = (overrides: Partial<Parameters<typeof createWechatTemplateSender>[0]> = {}) =>
    createWechatTemplateSender({
      appId: fake.appId,
      appSecret: fake.appSecret,
      apiBase: fake.url,
      templateId: fake.push.templateId,
      timeoutMs: 2000,
      now: () => wall,
      ...overrides,
    });
  const openid = () => `o${crypto.randomUUID().replaceAll("-", "")}`;
  const message = (to: string) => ({
    openid: to,
    data: { thing1: "Hello", time3: "2026-06-01 20:00" },
  });

  /** Awaits a WechatPushError that leaks neither the secret nor any access token. */
  async function pushRejection(promise: Promise<unknown>): Promise<WechatPushError> {
    const err = await rejection(promise);
    expect(err).toBeInstanceOf(WechatPushError);
    expect(String((err as Error).message)).not.toMatch(/STABLE_/);
    expect(JSON.stringify(err)).not.toMatch(/STABLE_/);
    return err as WechatPushError;
  }

  it("gets a stable token once and sends template messages with the documented body", async () => {
    const sender = makeSender();
    const to = openid();
    const tokensBefore = fake.push.tokenRequests.length;
    const first = await sender.send(message(to));
    await sender.send(message(to));
    expect(first.msgid).toMatch(/^\d+$/);
    expect(fake.push.tokenRequests.slice(tokensBefore)).toEqual([false]);
    const delivered = fake.push.messages.filter((m) => m.touser === to);
    expect(delivered).toHaveLength(2);
    expect(delivered[0]).toMatchObject({
      template_id: fake.push.templateId,
      data: { thing1: { value: "Hello" }, time3: { value: "2026-06-01 20:00" } },
    });
  });

  it("shares one token request between concurrent sends and refetches near expiry", async () => {
    const sender = makeSender();
    const before = fake.push.tokenRequests.length;
    await Promise.all([1, 2, 3, 4, 5].map(() => sender.send(message(openid()))));
    expect(fake.push.tokenRequests.length - before).toBe(1);
    wall += (7200 - 299) * 1000; // inside the 5-minute safety margin
    await sender.send(message(openid()));
    expect(fake.push.tokenRequests.slice(before)).toEqual([false, false]);
  });

  it("refreshes an expired token once (force_refresh) and retries the send once", async () => {
    const sender = makeSender();
    await sender.send(message(openid()));
    fake.push.expireTokens();
    const before = fake.push.tokenRequests.length;
    const to = openid();
    await Promise.all([sender.send(message(to)), sender.send(message(to))]);
    expect(fake.push.tokenRequests.slice(before)).toEqual([true]);
    expect(fake.push.sends.filter((s) => s.touser === to).map((s) => s.errcode)).toEqual([
      42001, 42001, 0, 0,
    ]);
  });

  it("marks 43004 and 40003 permanent, without a retry", async () => {
    const sender = makeSender();
    const gone = openid();
    fake.push.unsubscribe(gone);
    const err = await pushRejection(sender.send(message(gone)));
    expect(err).toMatchObject({
      stage: "send",
      reason: "recipient",
      permanent: true,
      errcode: 43004,
    });
    expect(fake.push.sends.filter((s) => s.touser === gone)).toHaveLength(1);
    const bad = await pushRejection(sender.send(message("bad openid!")));
    expect(bad).toMatchObject({ permanent: true, errcode: 40003 });
  });

  it("reports busy, quota, HTTP 500 and a hang as transient", async () => {
    const sender = makeSender({ timeoutMs: 200 });
    const to = openid();
    fake.push.failSends("busy", 1);
    expect(await pushRejection(sender.send(message(to)))).toMatchObject({
      permanent: false,
      reason: "rejected",
      errcode: -1,
    });
    fake.push.failSends("quota", 1);
    expect(await pushRejection(sender.send(message(to)))).toMatchObject({
      permanent: false,
      errcode: 45009,
    });
    fake.push.failSends("http-500", 1);
    expect(await pushRejection(sender.send(message(to)))).toMatchObject({
      permanent: false,
      reason: "http_status",
      status: 500,
    });
    fake.push.failSends("hang", 1);
    expect(await pushRejection(sender.send(message(to)))).toMatchObject({
      permanent: false,
      reason: "timeout",
    });
    await sender.send(message(to));
  });

  it("reports a refused token request at the token stage, with neither secret nor token", async () => {
    const wrong = makeSender({ appSecret: "wrong-secret-for-push-0000" });
    const err = await rejection(wrong.send(message(openid())), "wrong-secret-for-push-0000");
    expect(err).toMatchObject({
      stage: "token",
      reason: "rejected",
      errcode: 40125,
      permanent: false,
    });
    fake.push.failToken(45009);
    const err2 = await pushRejection(makeSender().send(message(openid())));
    expect(err2).toMatchObject({ stage: "token", errcode: 45009 });
  });

  it("uses an injected fetch and never puts the token in an error", async () => {
    const seen: { url: string; body: unknown }[] = [];
    const fakeFetch: typeof fetch = async (input, init) => {
      seen.push({ url: String(input), body: JSON.parse(String(init?.body)) });
      if (String(input).endsWith("/cgi-bin/stable_token")) {
        return new Response(JSON.stringify({ access_token: "TOKEN-xyz", expires_in: 7200 }));
      }
      return new Response("<html>oops</html>", { status: 200 });
    };
    const sender: WechatTemplateSender = createWechatTemplateSender({
      appId: "wxid",
      appSecret: "s3cr3t-injected",
      apiBase: "https://api.example.test/relay/",
      templateId: "tpl",
      fetch: fakeFetch,
    });
    const err = await rejection(sender.send(message("o-injected")), "s3cr3t-injected");
    expect(err).toMatchObject({ stage: "send", reason: "bad_response" });
    expect((err as Error).message).not.toContain("TOKEN-xyz");
    expect(seen.map((s) => s.url)).toEqual([
      "https://api.example.test/relay/cgi-bin/stable_token",
      "https://api.example.test/relay/cgi-bin/message/template/send?access_token=TOKEN-xyz",
    ]);
    expect(seen[0]!.body).toEqual({
      grant_type: "client_credential",
      appid: "wxid",
      secret: "s3cr3t-injected",
      force_refresh: false,
    });
    expect(seen[1]!.body).toEqual({
      touser: "o-injected",
      template_id: "tpl",
      data: { thing1: { value: "Hello" }, time3: { value: "2026-06-01 20:00" } },
    });
  });
});

describe("template values", () => {
  it("truncates on code points to 20 with an ellipsis", () => {
    expect(truncateThing("short")).toBe("short");
    expect(truncateThing("x".repeat(20))).toBe("x".repeat(20));
    expect(truncateThing("x".repeat(21))).toBe(`${"x".repeat(19)}…`);
    const emoji = "😀".repeat(25);
    const cut = truncateThing(emoji);
    expect(Array.from(cut)).toHaveLength(20);
    expect(cut).toBe(`${"😀".repeat(19)}…`);
    expect(cut).not.toMatch(/\p{Cs}/u); // no half of a surrogate pair
    expect(truncateThing("  深圳\n  市   贸易  ")).toBe("深圳 市 贸易");
  });

  it("formats time in Asia/Shanghai", () => {
    expect(wechatTime("2026-06-01T16:30:59.000Z")).toBe("2026-06-02 00:30");
    expect(wechatTime(new Date("2026-01-01T00:00:00Z"))).toBe("2026-01-01 08:00");
  });
});

describe("WeChat safe-mode message crypto (Web Crypto against Node's crypto)", () => {
  const AES_KEY = randomBytes(32).toString("base64").slice(0, 43);
  const APP_ID = "wx0123456789abcdef";
  const node = wechatPusher({ token: "tok", encodingAesKey: AES_KEY, appId: APP_ID });

  it("decrypts what WeChat encrypts and back, at every padding length (1..32)", async () => {
    const aes = await importWechatAesKey(AES_KEY);
    // 16 + 4 + 18 (appid) = 38 bytes around the message: lengths 0..40 cover every pad size.
    for (let n = 0; n <= 40; n++) {
      const message = `<xml>${"é".repeat(n % 3)}${"x".repeat(n)}</xml>`;
      expect(await decryptWechatMessage(aes, node.encrypt(message), APP_ID)).toEqual({
        message,
        appId: APP_ID,
      });
      expect(node.decrypt(await encryptWechatMessage(aes, message, APP_ID))).toEqual({
        message,
        appId: APP_ID,
      });
    }
  });

  it("refuses another app's message, bad padding and a truncated or non-base64 Encrypt", async () => {
    const aes = await importWechatAesKey(AES_KEY);
    await expect(
      decryptWechatMessage(aes, node.encrypt("<xml/>", "wxother"), APP_ID),
    ).rejects.toMatchObject({ reason: "wrong_app" });
    // Padding byte 0 (not PKCS#7): encrypted by hand with Node.
    const key = Buffer.from(`${AES_KEY}=`, "base64");
    const cipher = createCipheriv("aes-256-cbc", key, key.subarray(0, 16));
    cipher.setAutoPadding(false);
    const zeroPadded = Buffer.concat([cipher.update(Buffer.alloc(64, 0)), cipher.final()]);
    await expect(decryptWechatMessage(aes, zeroPadded.toString("base64"))).rejects.toBeInstanceOf(
      WechatCryptoError,
    );
    const good = node.encrypt("<xml>hello</xml>");
    await expect(decryptWechatMessage(aes, good.slice(0, 40))).rejects.toMatchObject({
      reason: "malformed",
    });
    await expect(decryptWechatMessage(aes, "not base64!")).rejects.toMatchObject({
      reason: "malformed",
    });
    await expect(importWechatAesKey("short")).rejects.toMatchObject({ reason: "bad_key" });
  });

  it("msg_signature is sha1 of sorted token, timestamp, nonce and Encrypt", async () => {
    const expected = createHash("sha1")
      .update(["tok", "1700000000", "n1", "ENC"].sort().join(""))
      .digest("hex");
    expect(await wechatMessageSignature("tok", "1700000000", "n1", "ENC")).toBe(expected);
    const input = { timestamp: "1700000000", nonce: "n1", encrypted: "ENC" };
    expect(await verifyWechatMessageSignature("tok", { ...input, signature: expected })).toBe(true);
    expect(
      await verifyWechatMessageSignature("tok", {
        ...input,
        encrypted: "ENC2",
        signature: expected,
      }),
    ).toBe(false);
    expect(await verifyWechatMessageSignature("", { ...input, signature: expected })).toBe(false);
  });
});
