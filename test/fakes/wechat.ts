import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A fake WeChat API on 127.0.0.1 speaking the real wire protocol of
 * `GET /sns/oauth2/access_token?appid=&secret=&code=&grant_type=authorization_code`:
 * HTTP 200 with either the token JSON or `{errcode, errmsg}`, in WeChat's order of checks.
 * Codes are single use. Like WeChat, the JSON is not labelled application/json.
 *
 * Official Account template messages too: `POST /cgi-bin/stable_token` (the same token for every
 * caller until it expires or force_refresh mints another; the previous one stays valid, as on
 * WeChat) and `POST /cgi-bin/message/template/send?access_token=` (delivered messages are
 * recorded; "thing" values over 20 characters are refused with 47003 like WeChat does).
 */

const FAKE_WECHAT_APP_ID = "wx0123456789abcdef";
const FAKE_WECHAT_APP_SECRET = "fake-wechat-app-secret-0123456789";

const FAKE_WECHAT_TEMPLATE_ID = "fake-template-0123456789abcdefghijklmnopq";

/** How the fake misbehaves instead of answering normally. */
type FakeWechatFailure = "http-502" | "non-json" | "hang" | null;

/**
 * How a template send misbehaves: WeChat busy (-1), API quota reached (45009), HTTP 500, or no
 * answer at all.
 */
type FakeWechatSendFailure = "busy" | "quota" | "http-500" | "hang";

interface FakeTemplateMessage {
  touser: string;
  template_id: string;
  data: Record<string, { value: string }>;
  msgid: number;
}

interface FakeWechatPush {
  templateId: string;
  /** Delivered template messages, in order. */
  messages: FakeTemplateMessage[];
  /** Every send request (delivered or not): its openid and the errcode answered (-2 = no answer). */
  sends: { touser: string; errcode: number }[];
  /** force_refresh of every stable_token request. */
  tokenRequests: boolean[];
  /** Invalidates every token handed out: the next send answers 42001 (token expired). */
  expireTokens(): void;
  /** This openid no longer follows the account: sends to it answer 43004. */
  unsubscribe(openid: string): void;
  /** The next `times` sends (any openid, or only this one) fail this way. */
  failSends(mode: FakeWechatSendFailure, times: number, openid?: string): void;
  /** The stable_token endpoint answers this errcode (null restores it). */
  failToken(errcode: number | null): void;
  /** Every send answers only after this many ms (0 = at once). */
  delaySends(ms: number): void;
  /** Back to normal answers (scripted failures, delays and unsubscriptions dropped). */
  reset(): void;
}

export interface FakeWechat {
  url: string;
  appId: string;
  appSecret: string;
  /** Mints a one-time login code for this user, as the WeChat app would hand to the client. */
  issueCode(openid: string, unionid?: string): string;
  /** Makes every following request fail this way (null restores normal answers). */
  fail(mode: FakeWechatFailure): void;
  /** Query strings of the login requests received, for assertions. */
  requests: URLSearchParams[];
  /** The template-message side (stable_token and template/send). */
  push: FakeWechatPush;
  close(): Promise<void>;
}

interface IssuedCode {
  openid: string;
  unionid?: string;
  used: boolean;
}

function rid(): string {
  return `${randomBytes(4).toString("hex")}-${randomBytes(4).toString("hex")}`;
}

function send(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { "content-type": "text/plain" });
  res.end(JSON.stringify(body));
}

function wechatError(errcode: number, errmsg: string): Record<string, unknown> {
  return { errcode, errmsg: `${errmsg}, rid: ${rid()}` };
}

export async function startFakeWechat(
  opts: { appId?: string; appSecret?: string; templateId?: string } = {},
): Promise<FakeWechat> {
  const appId = opts.appId ?? FAKE_WECHAT_APP_ID;
  const appSecret = opts.appSecret ?? FAKE_WECHAT_APP_SECRET;
  const templateId = opts.templateId ?? FAKE_WECHAT_TEMPLATE_ID;
  const codes = new Map<string, IssuedCode>();
  const requests: URLSearchParams[] = [];
  let failure: FakeWechatFailure = null;

  // Template-message state.
  const validTokens = new Set<string>();
  let currentToken: string | null = null;
  const unsubscribed = new Set<string>();
  let sendFailures: { mode: FakeWechatSendFailure; left: number; openid?: string }[] = [];
  let tokenFailure: number | null = null;
  let sendDelayMs = 0;
  let msgid = 1_000_000;
  const push: FakeWechatPush = {
    templateId,
    messages: [],
    sends: [],
    tokenRequests: [],
    expireTokens() {
      validTokens.clear();
      currentToken = null;
    },
    unsubscribe(openid) {
      unsubscribed.add(openid);
    },
    failSends(mode, times, openid) {
      sendFailures.push(
        openid === undefined ? { mode, left: times } : { mode, left: times, openid },
      );
    },
    failToken(errcode) {
      tokenFailure = errcode;
    },
    delaySends(ms) {
      sendDelayMs = ms;
    },
    reset() {
      unsubscribed.clear();
      sendFailures = [];
      tokenFailure = null;
      sendDelayMs = 0;
    },
  };

  function readJson(req: IncomingMessage): Promise<Record<string, unknown> | null> {
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        try {
          const value: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
          resolve(
            typeof value === "object" && value !== null ? (value as Record<string, unknown>) : null,
          );
        } catch {
          resolve(null);
        }
      });
      req.on("error", () => resolve(null));
    });
  }

  async function stableToken(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJson(req);
    if (!body) return send(res, wechatError(47001, "data format error"));
    push.tokenRequests.push(body.force_refresh === true);
    if (tokenFailure !== null) return send(res, wechatError(tokenFailure, "scripted failure"));
    if (body.grant_type !== "client_credential") {
      return send(res, wechatError(40002, "invalid grant_type"));
    }
    if (!body.appid) return send(res, wechatError(41002, "appid missing"));
    if (body.appid !== appId) return send(res, wechatError(40013, "invalid appid"));
    if (!body.secret) return send(res, wechatError(41004, "appsecret missing"));
    if (body.secret !== appSecret) return send(res, wechatError(40125, "invalid appsecret"));
    if (body.force_refresh === true || currentToken === null) {
      currentToken = `STABLE_${randomBytes(24).toString("hex")}`;
      validTokens.add(currentToken);
    }
    send(res, { access_token: currentToken, expires_in: 7200 });
  }

  async function templateSend(url: URL, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJson(req);
    const touser = typeof body?.touser === "string" ? body.touser : "";
    const answer = (errcode: number, errmsg: string) => {
      push.sends.push({ touser, errcode });
      send(res, wechatError(errcode, errmsg));
    };
    if (sendDelayMs > 0) await new Promise((r) => setTimeout(r, sendDelayMs));
    const scripted = sendFailures.find(
      (f) => f.left > 0 && (f.openid === undefined || f.openid === touser),
    );
    if (scripted) {
      scripted.left--;
      sendFailures = sendFailures.filter((f) => f.left > 0);
      if (scripted.mode === "hang") {
        push.sends.push({ touser, errcode: -2 });
        return; // never answers; the client's timeout must fire
      }
      if (scripted.mode === "http-500") {
        push.sends.push({ touser, errcode: -2 });
        res.writeHead(500, { "content-type": "text/html" });
        res.end("<html><body>500 Internal Server Error</body></html>");
        return;
      }
      return scripted.mode === "busy"
        ? answer(-1, "system error")
        : answer(45009, "reach max api daily quota limit");
    }
    const token = url.searchParams.get("access_token");
    if (!token) return answer(41001, "access_token missing");
    if (!validTokens.has(token)) {
      return token.startsWith("STABLE_")
        ? answer(42001, "access_token expired")
        : answer(40001, "invalid credential, access_token is invalid or not latest");
    }
    if (!body) return answer(47001, "data format error");
    if (body.template_id !== templateId) return answer(40037, "invalid template_id");
    if (!touser || !/^[\w-]{6,64}$/.test(touser)) return answer(40003, "invalid openid");
    if (unsubscribed.has(touser)) return answer(43004, "require subscribe");
    const data = body.data as Record<string, { value?: unknown }> | undefined;
    if (typeof data !== "object" || data === null) return answer(47003, "argument invalid!");
    for (const [key, field] of Object.entries(data)) {
      const value = field?.value;
      if (typeof value !== "string") return answer(47003, `argument invalid! data.${key}.value`);
      if (key.startsWith("thing") && Array.from(value).length > 20) {
        return answer(47003, `argument invalid! data.${key}.value too long`);
      }
    }
    const id = msgid++;
    push.messages.push({
      touser,
      template_id: templateId,
      data: data as Record<string, { value: string }>,
      msgid: id,
    });
    push.sends.push({ touser, errcode: 0 });
    send(res, { errcode: 0, errmsg: "ok", msgid: id });
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method === "POST" && url.pathname === "/cgi-bin/stable_token") {
      void stableToken(req, res);
      return;
    }
    if (req.method === "POST" && url.pathname === "/cgi-bin/message/template/send") {
      void templateSend(url, req, res);
      return;
    }
    if (url.pathname !== "/sns/oauth2/access_token") {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
      return;
    }
    requests.push(url.searchParams);
    if (failure === "hang") return; // never answers; the client's timeout must fire
    if (failure === "http-502") {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html><body><h1>502 Bad Gateway</h1></body></html>");
      return;
    }
    if (failure === "non-json") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html><body>system maintenance</body></html>");
      return;
    }

    send(res, exchange(url.searchParams));
  }

  /** WeChat's checks, in WeChat's order. */
  function exchange(q: URLSearchParams): Record<string, unknown> {
    const appid = q.get("appid");
    const secret = q.get("secret");
    const code = q.get("code");
    if (!appid) return wechatError(41002, "appid missing");
    if (appid !== appId) return wechatError(40013, "invalid appid");
    if (!secret) return wechatError(41004, "appsecret missing");
    if (secret !== appSecret) return wechatError(40125, "invalid appsecret");
    if (q.get("grant_type") !== "authorization_code") {
      return wechatError(40002, "invalid grant_type");
    }
    if (!code) return wechatError(41008, "missing code");
    const issued = codes.get(code);
    if (!issued) return wechatError(40029, "invalid code");
    if (issued.used) return wechatError(40163, "code been used");
    issued.used = true;
    return {
      access_token: `ACCESS_${randomBytes(16).toString("hex")}`,
      expires_in: 7200,
      refresh_token: `REFRESH_${randomBytes(16).toString("hex")}`,
      openid: issued.openid,
      scope: "snsapi_login",
      ...(issued.unionid ? { unionid: issued.unionid } : {}),
    };
  }

  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    appId,
    appSecret,
    requests,
    push,
    issueCode(openid, unionid) {
      const code = randomBytes(16).toString("hex");
      codes.set(code, unionid ? { openid, unionid, used: false } : { openid, used: false });
      return code;
    },
    fail(mode) {
      failure = mode;
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections(); // keep-alive and hung requests would hold close() open
      });
    },
  };
}

/**
 * WeChat's side of the message push (the webhook), re-implemented with Node's crypto from
 * WeChat's documentation, independent of the app's Web Crypto code: plaintext mode signs
 * `signature` = sha1(sort(token, timestamp, nonce)) and sends the XML as is; safe mode
 * (`encrypt_type=aes`) sends `<xml><ToUserName/><Encrypt/></xml>` with `msg_signature` =
 * sha1(sort(token, timestamp, nonce, Encrypt)), Encrypt = base64(AES-256-CBC(key =
 * base64(EncodingAESKey + "="), IV = key[0:16], PKCS#7 to 32-byte blocks, over 16 random bytes +
 * 4-byte big-endian length + message + AppID)); compatible mode carries the plaintext fields too.
 */
export interface WechatPushRequest {
  query: string;
  body: string;
  timestamp: number;
  nonce: string;
}

export function wechatPusher(opts: { token: string; encodingAesKey?: string; appId?: string }) {
  const sha1 = (parts: string[]) =>
    createHash("sha1")
      .update([...parts].sort().join(""))
      .digest("hex");
  const key = () => Buffer.from(`${opts.encodingAesKey}=`, "base64");
  let nonceSeq = 0;
  const freshNonce = () => `${Date.now() % 1_000_000}${process.pid}${nonceSeq++}`;

  function encrypt(message: string, appId = opts.appId ?? ""): string {
    const body = Buffer.from(message, "utf8");
    const length = Buffer.alloc(4);
    length.writeUInt32BE(body.length, 0);
    const plain = Buffer.concat([randomBytes(16), length, body, Buffer.from(appId, "utf8")]);
    const pad = 32 - (plain.length % 32);
    const cipher = createCipheriv("aes-256-cbc", key(), key().subarray(0, 16));
    cipher.setAutoPadding(false);
    return Buffer.concat([
      cipher.update(Buffer.concat([plain, Buffer.alloc(pad, pad)])),
      cipher.final(),
    ]).toString("base64");
  }

  function decrypt(encrypted: string): { message: string; appId: string } {
    const decipher = createDecipheriv("aes-256-cbc", key(), key().subarray(0, 16));
    decipher.setAutoPadding(false);
    const plain = Buffer.concat([
      decipher.update(Buffer.from(encrypted, "base64")),
      decipher.final(),
    ]);
    const content = plain.subarray(0, plain.length - plain[plain.length - 1]!);
    const size = content.readUInt32BE(16);
    return {
      message: content.subarray(20, 20 + size).toString("utf8"),
      appId: content.subarray(20 + size).toString("utf8"),
    };
  }

  return {
    encrypt,
    decrypt,
    /** A plaintext-mode push (no encrypt_type): the signature does not cover the body. */
    plaintext(body: string, at: { timestamp?: number; nonce?: string } = {}): WechatPushRequest {
      const timestamp = at.timestamp ?? Math.floor(Date.now() / 1000);
      const nonce = at.nonce ?? freshNonce();
      const signature = sha1([opts.token, String(timestamp), nonce]);
      return {
        query: `signature=${signature}&timestamp=${timestamp}&nonce=${nonce}&openid=ignored`,
        body,
        timestamp,
        nonce,
      };
    },
    /** A safe-mode push, or with `compatible` the plaintext fields beside Encrypt. */
    encrypted(
      message: string,
      at: { timestamp?: number; nonce?: string; compatible?: boolean; appId?: string } = {},
    ): WechatPushRequest & { encrypted: string } {
      const timestamp = at.timestamp ?? Math.floor(Date.now() / 1000);
      const nonce = at.nonce ?? freshNonce();
      const encrypted = encrypt(message, at.appId);
      const signature = sha1([opts.token, String(timestamp), nonce]);
      const msgSignature = sha1([opts.token, String(timestamp), nonce, encrypted]);
      const outer = at.compatible
        ? message.replace(/<\/xml>\s*$/, `<Encrypt><![CDATA[${encrypted}]]></Encrypt></xml>`)
        : `<xml><ToUserName><![CDATA[gh_service]]></ToUserName><Encrypt><![CDATA[${encrypted}]]></Encrypt></xml>`;
      return {
        query: `signature=${signature}&timestamp=${timestamp}&nonce=${nonce}&openid=ignored&encrypt_type=aes&msg_signature=${msgSignature}`,
        body: outer,
        timestamp,
        nonce,
        encrypted,
      };
    },
    /** Opens an encrypted passive reply as WeChat does: checks its signature, then decrypts. */
    openReply(xml: string): { message: string; appId: string; signatureOk: boolean } {
      const field = (name: string) =>
        new RegExp(`<${name}>(?:<!\\[CDATA\\[)?([^<\\]]*)(?:\\]\\]>)?</${name}>`).exec(xml)?.[1] ??
        "";
      const encrypted = field("Encrypt");
      const expected = sha1([opts.token, field("TimeStamp"), field("Nonce"), encrypted]);
      return { ...decrypt(encrypted), signatureOk: expected === field("MsgSignature") };
    },
  };
}
