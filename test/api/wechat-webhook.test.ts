import { createHash, randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import {
  REPLY_NO_CREDITS,
  REPLY_NOT_LINKED,
  REPLY_TEXT_ONLY,
} from "../../src/modules/wechat-webhook/service";
import { parseWechatXml, textReplyXml } from "../../src/modules/wechat-webhook/xml";
import { type FakeDeepl, startFakeDeepl } from "../fakes/deepl";
import { wechatPusher } from "../fakes/wechat";
import { addAiProvider, clearAiProviders } from "../support/ai";
import { call, registerUser } from "../support/client";
import { createTestContext } from "../support/harness";

// The messaging-app webhook (API.md: GET, POST /api/v1/webhooks/wechat, WeChat signature):
// the echostr handshake, and a buyer's message forwarded by a seller answered with its
// translation, charged once per MsgId however often WeChat retries.

const TOKEN = "wechat-webhook-token";
const pusher = wechatPusher({ token: TOKEN });
const ctx = await createTestContext({ env: { WECHAT_TOKEN: TOKEN } });
const { app, deps } = ctx;
const PATH = "/api/v1/webhooks/wechat";
let deepl: FakeDeepl;

beforeAll(async () => {
  deepl = await startFakeDeepl();
  await clearAiProviders(deps);
  await addAiProvider(deps, {
    name: "deepl",
    kind: "mt",
    baseUrl: deepl.url,
    apiKey: deepl.apiKey,
  });
});
afterAll(() => deepl.close());

let handshakeSeq = 0;
function signed(timestamp = Math.floor(Date.now() / 1000), nonce = `h${handshakeSeq++}`) {
  const signature = createHash("sha1")
    .update([TOKEN, String(timestamp), nonce].sort().join(""))
    .digest("hex");
  return `signature=${signature}&timestamp=${timestamp}&nonce=${nonce}`;
}

let msgSeq = 7_000_000_000_000_000;
function textMessage(openid: string, content: string, msgId = String(msgSeq++)) {
  return `<xml><ToUserName><![CDATA[gh_service]]></ToUserName><FromUserName><![CDATA[${openid}]]></FromUserName><CreateTime>1700000000</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[${content}]]></Content><MsgId>${msgId}</MsgId></xml>`;
}

async function post(body: string, query = pusher.plaintext(body).query, target = app) {
  const res = await target.request(`${PATH}?${query}`, {
    method: "POST",
    headers: { "content-type": "text/xml" },
    body,
  });
  const text = await res.text();
  return { status: res.status, text, fields: parseWechatXml(text) };
}

async function linkedSeller() {
  const user = await registerUser(app);
  const openid = `o-${user.userId}`;
  await queryRows(
    deps.db,
    sql`update users set wechat_openid = ${openid}, language = 'zh' where id = ${user.userId}`,
  );
  return { user, openid };
}

const balanceOf = async (token: string) =>
  (await call(app, "/api/v1/credits/balance", { token })).body.balance as number;

describe("WeChat webhook", () => {
  it("echoes echostr for WeChat's signature only, within 5 minutes", async () => {
    const ok = await app.request(`${PATH}?${signed()}&echostr=abc123`);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe("abc123");

    const forged = await app.request(
      `${PATH}?signature=${"0".repeat(40)}&timestamp=1&nonce=x&echostr=a`,
    );
    expect(forged.status).toBe(403);
    const stale = await app.request(
      `${PATH}?${signed(Math.floor(Date.now() / 1000) - 600)}&echostr=a`,
    );
    expect(stale.status).toBe(403);
    expect((await app.request(`${PATH}?echostr=a`)).status).toBe(403);
    // A forged signature never reaches the message handler either.
    const res = await post(textMessage("o-x", "hi"), "signature=bad&timestamp=1&nonce=x");
    expect(res.status).toBe(403);
  });

  it("answers a forwarded message with its translation, charging once across retries", async () => {
    const { user, openid } = await linkedSeller();
    const before = await balanceOf(user.accessToken);
    const body = textMessage(openid, "Could you quote 500 pcs FOB Ningbo?", "8100000000000001");

    const first = await post(body);
    expect(first.status).toBe(200);
    expect(first.fields).toMatchObject({
      ToUserName: openid,
      FromUserName: "gh_service",
      MsgType: "text",
      Content: "[ZH] Could you quote 500 pcs FOB Ningbo?",
    });
    // WeChat retries the same MsgId: the same reply, no second translation or charge.
    const retry = await post(body);
    expect(retry.fields?.Content).toBe(first.fields?.Content);
    expect(deepl.requests.filter((r) => r.text[0]?.startsWith("Could you"))).toHaveLength(1);
    expect(await balanceOf(user.accessToken)).toBe(before - 1);

    const history = await call(app, "/api/v1/translations", { token: user.accessToken });
    expect(history.body.items[0]).toMatchObject({ tier: "mt", provider: "deepl" });
  });

  it("tells an unknown sender to log in with WeChat, and a seller without credits to top up", async () => {
    const unknown = await post(textMessage("o-nobody", "hello"));
    expect(unknown.fields?.Content).toBe(REPLY_NOT_LINKED);

    const { user, openid } = await linkedSeller();
    await queryRows(
      deps.db,
      sql`select credit_charge(${user.userId}::uuid, 30, 'consumption', 'translate', 'drain',
            null::uuid, null, now())`,
    );
    expect(await balanceOf(user.accessToken)).toBe(0);
    const broke = await post(textMessage(openid, "hello"));
    expect(broke.fields?.Content).toBe(REPLY_NO_CREDITS);
  });

  it("acknowledges events, replies that only text is translated, and rejects other bodies", async () => {
    const { openid } = await linkedSeller();
    const event = await post(
      `<xml><ToUserName><![CDATA[gh_service]]></ToUserName><FromUserName><![CDATA[${openid}]]></FromUserName><CreateTime>1</CreateTime><MsgType><![CDATA[event]]></MsgType><Event><![CDATA[subscribe]]></Event></xml>`,
    );
    expect(event).toMatchObject({ status: 200, text: "success" });
    const image = await post(
      `<xml><ToUserName><![CDATA[gh_service]]></ToUserName><FromUserName><![CDATA[${openid}]]></FromUserName><CreateTime>1</CreateTime><MsgType><![CDATA[image]]></MsgType><PicUrl><![CDATA[http://example.com/a.jpg]]></PicUrl><MsgId>8100000000000099</MsgId></xml>`,
    );
    expect(image.fields?.Content).toBe(REPLY_TEXT_ONLY);
    expect((await post("not xml")).status).toBe(400);
    expect((await post('<!DOCTYPE x [<!ENTITY a "b">]><xml></xml>')).status).toBe(400);
  });

  it("is not configured without WECHAT_TOKEN", async () => {
    const bare = await ctx.makeApp({}, { WECHAT_TOKEN: "" });
    const res = await bare.request(`${PATH}?${signed()}&echostr=a`);
    expect(res.status).toBe(503);
  });
});

describe("WeChat webhook, plaintext mode: one signature carries one message", () => {
  it("refuses 10 different messages on one captured signature; the victim pays once", async () => {
    const victim = await linkedSeller();
    const before = await balanceOf(victim.user.accessToken);
    const captured = pusher.plaintext(textMessage(victim.openid, "Genuine message"));
    const first = await post(captured.body, captured.query);
    expect(first.fields?.Content).toBe("[ZH] Genuine message");
    for (let i = 0; i < 10; i++) {
      const forged = await post(
        textMessage(victim.openid, `Forged message ${i}`, `81${Date.now()}${i}`),
        captured.query,
      );
      expect(forged.status).toBe(403);
    }
    expect(await balanceOf(victim.user.accessToken)).toBe(before - 1);
    expect(deepl.requests.filter((r) => r.text[0]?.startsWith("Forged"))).toHaveLength(0);

    // WeChat's own retry (same nonce, same message) still gets the stored reply, uncharged.
    const retry = await post(captured.body, captured.query);
    expect(retry.status).toBe(200);
    expect(retry.fields?.Content).toBe("[ZH] Genuine message");
    expect(await balanceOf(victim.user.accessToken)).toBe(before - 1);
  });

  it("of 10 different messages raced on one signature, exactly one is taken", async () => {
    const victim = await linkedSeller();
    const before = await balanceOf(victim.user.accessToken);
    const captured = pusher.plaintext("");
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post(textMessage(victim.openid, `Raced ${i}`, `82${Date.now()}${i}`), captured.query),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 403)).toHaveLength(9);
    expect(await balanceOf(victim.user.accessToken)).toBe(before - 1);
  });

  it("a handshake's signature cannot carry a message", async () => {
    const victim = await linkedSeller();
    const query = signed();
    expect((await app.request(`${PATH}?${query}&echostr=e1`)).status).toBe(200);
    expect((await app.request(`${PATH}?${query}&echostr=e1`)).status).toBe(200);
    expect((await app.request(`${PATH}?${query}&echostr=e2`)).status).toBe(403);
    expect((await post(textMessage(victim.openid, "Forged"), query)).status).toBe(403);
  });
});

describe("WeChat webhook, safe and compatible modes (encrypt_type=aes)", () => {
  const APP_ID = "wx0123456789abcdef";
  const AES_KEY = randomBytes(32).toString("base64").slice(0, 43);
  const safe = wechatPusher({ token: TOKEN, encodingAesKey: AES_KEY, appId: APP_ID });
  let aesApp: Awaited<ReturnType<typeof ctx.makeApp>>;
  beforeAll(async () => {
    aesApp = await ctx.makeApp({}, { WECHAT_ENCODING_AES_KEY: AES_KEY, WECHAT_APP_ID: APP_ID });
  });

  async function send(push: { query: string; body: string }) {
    const res = await aesApp.request(`${PATH}?${push.query}`, {
      method: "POST",
      headers: { "content-type": "text/xml" },
      body: push.body,
    });
    const text = await res.text();
    return { status: res.status, text };
  }
  const open = (xml: string) => {
    const reply = safe.openReply(xml);
    return { ...reply, fields: parseWechatXml(reply.message) };
  };

  it("decrypts a safe-mode message and answers with an encrypted, signed reply", async () => {
    const { user, openid } = await linkedSeller();
    const before = await balanceOf(user.accessToken);
    const push = safe.encrypted(textMessage(openid, "Safe mode hello"));
    const res = await send(push);
    expect(res.status).toBe(200);
    expect(parseWechatXml(res.text)).not.toHaveProperty("Content");
    const reply = open(res.text);
    expect(reply).toMatchObject({ signatureOk: true, appId: APP_ID });
    expect(reply.fields).toMatchObject({ ToUserName: openid, Content: "[ZH] Safe mode hello" });

    // WeChat's retry of the same push: the stored reply, one charge.
    const retry = open((await send(push)).text);
    expect(retry.fields?.Content).toBe("[ZH] Safe mode hello");
    expect(await balanceOf(user.accessToken)).toBe(before - 1);
  });

  it("in compatible mode the sender comes from the encrypted message, not the plaintext beside it", async () => {
    const victim = await linkedSeller();
    const sender = await linkedSeller();
    const victimBefore = await balanceOf(victim.user.accessToken);
    const push = safe.encrypted(textMessage(sender.openid, "Compatible hello"), {
      compatible: true,
    });
    // Rewriting the plaintext fields changes nothing the signature covers.
    const tampered = {
      ...push,
      body: push.body.replace(sender.openid, victim.openid).replace("Compatible hello", "Spend"),
    };
    const res = await send(tampered);
    expect(res.status).toBe(200);
    expect(open(res.text).fields).toMatchObject({
      ToUserName: sender.openid,
      Content: "[ZH] Compatible hello",
    });
    expect(await balanceOf(victim.user.accessToken)).toBe(victimBefore);
  });

  it("refuses a tampered Encrypt, a plaintext downgrade, another app's message and a reused nonce", async () => {
    const { user, openid } = await linkedSeller();
    const before = await balanceOf(user.accessToken);
    const push = safe.encrypted(textMessage(openid, "Original"));
    const other = safe.encrypted(textMessage(openid, "Swapped in"));
    // Another message's Encrypt under this request's msg_signature.
    expect((await send({ query: push.query, body: other.body })).status).toBe(403);
    // The same message in plaintext mode, signed correctly, but safe mode is configured.
    expect((await send(pusher.plaintext(textMessage(openid, "Downgraded")))).status).toBe(403);
    // Sealed for another AppID.
    expect(
      (await send(safe.encrypted(textMessage(openid, "Elsewhere"), { appId: "wxother" }))).status,
    ).toBe(403);
    // A different message under a nonce already spent.
    expect((await send(push)).status).toBe(200);
    const reused = safe.encrypted(textMessage(openid, "Second under one nonce"), {
      timestamp: push.timestamp,
      nonce: push.nonce,
    });
    expect((await send(reused)).status).toBe(403);
    expect(await balanceOf(user.accessToken)).toBe(before - 1);
  });
});

describe("WeChat XML", () => {
  it("round-trips text with CDATA terminators and reads plain elements with entities", () => {
    const xml = textReplyXml({ toUser: "o1", fromUser: "gh", createTime: 5, content: "a]]>b <c>" });
    expect(parseWechatXml(xml)).toEqual({
      ToUserName: "o1",
      FromUserName: "gh",
      CreateTime: "5",
      MsgType: "text",
      Content: "a]]>b <c>",
    });
    expect(parseWechatXml("<xml><A>x &amp; y</A></xml>")).toEqual({ A: "x & y" });
    expect(parseWechatXml("<root/>")).toBeUndefined();
  });
});
