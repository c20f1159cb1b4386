/**
 * WeChat Open Platform client (website / mobile app login), the server-verification signature and
 * the Official Account template-message sender (notification pushes, below).
 * Edge-safe: fetch and Web Crypto only.
 *
 * Login: the client app obtains a one-time `code` (valid ~5 minutes, single use) and the server
 * exchanges it at `GET /sns/oauth2/access_token`. WeChat answers HTTP 200 for both outcomes:
 * `{access_token, expires_in, refresh_token, openid, scope, unionid?}` or `{errcode, errmsg}`.
 * The body is JSON but is not reliably labelled `application/json`, so it is parsed from text.
 */

interface WechatIdentity {
  openid: string;
  /** Present when the app is bound to a WeChat Open Platform account. */
  unionid?: string;
}

export interface WechatClient {
  /** Trades a login code for the user's identity. Throws WechatAuthError or WechatUnavailableError. */
  exchangeCode(code: string): Promise<WechatIdentity>;
}

/** The code was refused (invalid, expired, already used...): the user should log in again. */
export class WechatAuthError extends Error {
  readonly errcode: number;
  constructor(errcode: number) {
    super("WeChat login code is invalid or expired");
    this.name = "WechatAuthError";
    this.errcode = errcode;
  }
}

export type WechatUnavailableReason =
  | "network"
  | "timeout"
  | "http_status"
  | "bad_response"
  /** WeChat refused our credentials or is busy / rate limiting: not the user's fault. */
  | "rejected";

/** WeChat could not be reached or answered unusably; the HTTP layer answers 503. */
export class WechatUnavailableError extends Error {
  readonly reason: WechatUnavailableReason;
  readonly status?: number;
  readonly errcode?: number;
  constructor(
    reason: WechatUnavailableReason,
    details: { status?: number; errcode?: number } = {},
  ) {
    const suffix =
      details.errcode !== undefined
        ? ` (errcode ${details.errcode})`
        : details.status !== undefined
          ? ` (HTTP ${details.status})`
          : "";
    super(`WeChat is unavailable: ${reason}${suffix}`);
    this.name = "WechatUnavailableError";
    this.reason = reason;
    if (details.status !== undefined) this.status = details.status;
    if (details.errcode !== undefined) this.errcode = details.errcode;
  }
}

/**
 * errcodes that mean our side is misconfigured or WeChat is busy, so retrying with a fresh code
 * would not help: -1 system busy, 40002 invalid grant_type, 40013 invalid appid, 40125 invalid
 * appsecret, 40164 caller IP not whitelisted, 41002 / 41004 appid / secret missing, 45009 / 45011
 * API quota reached. Every other errcode (40029 invalid code, 40163 code been used, 41008 missing
 * code, ...) is about the code itself.
 */
const SERVER_SIDE_ERRCODES = new Set([-1, 40002, 40013, 40125, 40164, 41002, 41004, 45009, 45011]);

export interface WechatClientOptions {
  appId: string;
  appSecret: string;
  /** e.g. WECHAT_API_BASE; a path prefix (a relay) is kept. */
  apiBase: string;
  fetch?: typeof fetch;
  /** Whole-request deadline, body included. Default 5000 ms. */
  timeoutMs?: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A 200 answer's status and text; anything else, or no answer in time, is unavailable. */
async function fetchText(
  doFetch: typeof fetch,
  url: string,
  timeoutMs: number,
): Promise<{ status: number; text: string }> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const res = await doFetch(url, {
      method: "GET",
      headers: { accept: "application/json" },
      redirect: "manual",
      signal,
    });
    const status = res.status;
    if (status !== 200) {
      await res.body?.cancel().catch(() => {});
      throw new WechatUnavailableError("http_status", { status });
    }
    return { status, text: await res.text() };
  } catch (err) {
    if (err instanceof WechatUnavailableError) throw err;
    // Deliberately no `cause`: fetch errors may echo the request URL, which holds the secret.
    throw new WechatUnavailableError(signal.aborted ? "timeout" : "network");
  }
}

export function createWechatClient(opts: WechatClientOptions): WechatClient {
  const { appId, appSecret } = opts;
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? 5000;
  const endpoint = `${opts.apiBase.replace(/\/+$/, "")}/sns/oauth2/access_token`;

  return {
    async exchangeCode(code) {
      if (typeof code !== "string" || code.length === 0 || code.length > 512) {
        throw new WechatAuthError(41008); // WeChat's "missing code"
      }
      const query = new URLSearchParams({
        appid: appId,
        secret: appSecret,
        code,
        grant_type: "authorization_code",
      });
      const { status, text } = await fetchText(doFetch, `${endpoint}?${query}`, timeoutMs);

      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new WechatUnavailableError("bad_response", { status });
      }
      if (!isRecord(body)) throw new WechatUnavailableError("bad_response", { status });

      const { errcode, openid, unionid } = body;
      if (errcode !== undefined && errcode !== 0) {
        const n = typeof errcode === "number" ? errcode : Number(errcode);
        if (!Number.isFinite(n)) throw new WechatUnavailableError("bad_response", { status });
        if (SERVER_SIDE_ERRCODES.has(n))
          throw new WechatUnavailableError("rejected", { errcode: n });
        throw new WechatAuthError(n);
      }
      if (typeof openid !== "string" || openid.length === 0) {
        throw new WechatUnavailableError("bad_response", { status });
      }
      return typeof unionid === "string" && unionid.length > 0 ? { openid, unionid } : { openid };
    },
  };
}

function hex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * WeChat server verification (the `signature`, `timestamp`, `nonce` query of a message push):
 * sort [token, timestamp, nonce] lexicographically, concatenate, SHA-1, lowercase hex, and compare
 * with `signature` in constant time. An empty token never verifies.
 */
export async function verifyWechatSignature(
  token: string,
  timestamp: string,
  nonce: string,
  signature: string,
): Promise<boolean> {
  const parts = [token, timestamp, nonce];
  if (!token || typeof signature !== "string" || parts.some((p) => typeof p !== "string")) {
    return false;
  }
  const joined = parts.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).join("");
  const digest = await crypto.subtle.digest("SHA-1", new TextEncoder().encode(joined));
  return constantTimeEqual(hex(digest), signature.toLowerCase());
}

/*
 * Safe (and compatible) mode of message pushes: `encrypt_type=aes`. The body carries `Encrypt`,
 * base64 of AES-256-CBC with key = base64decode(EncodingAESKey + "="), IV = key[0:16], PKCS#7
 * padding to 32-byte blocks, over: 16 random bytes, the message length (4 bytes big-endian), the
 * message XML, the AppID. The query's `msg_signature` = sha1 of sorted [token, timestamp, nonce,
 * Encrypt], so here the signature does cover the message. Replies go back encrypted the same way
 * inside `<xml><Encrypt/><MsgSignature/><TimeStamp/><Nonce/></xml>`.
 *
 * Web Crypto's AES-CBC always pads to 16 bytes with PKCS#7 and checks that padding, while WeChat
 * pads to 32: encryption drops the extra block Web Crypto appends, and decryption appends a block
 * that decrypts to a full 16-byte padding block, so Web Crypto strips only that and WeChat's own
 * padding is checked here.
 */

export class WechatCryptoError extends Error {
  constructor(readonly reason: "bad_key" | "malformed" | "bad_padding" | "wrong_app") {
    super(`WeChat message decryption failed: ${reason}`);
    this.name = "WechatCryptoError";
  }
}

const WECHAT_BLOCK = 32;
const AES_BLOCK = 16;

export interface WechatAesKey {
  key: CryptoKey;
  iv: Uint8Array<ArrayBuffer>;
}

/** The AES key of a 43-character EncodingAESKey. */
export async function importWechatAesKey(encodingAesKey: string): Promise<WechatAesKey> {
  if (!/^[A-Za-z0-9+/]{43}$/.test(encodingAesKey)) throw new WechatCryptoError("bad_key");
  const raw = fromBase64(`${encodingAesKey}=`);
  const key = await crypto.subtle.importKey("raw", raw, { name: "AES-CBC" }, false, [
    "encrypt",
    "decrypt",
  ]);
  return { key, iv: raw.slice(0, AES_BLOCK) };
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** `msg_signature`: sha1 of sorted [token, timestamp, nonce, Encrypt], lowercase hex. */
export async function wechatMessageSignature(
  token: string,
  timestamp: string,
  nonce: string,
  encrypted: string,
): Promise<string> {
  const joined = [token, timestamp, nonce, encrypted]
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .join("");
  return hex(await crypto.subtle.digest("SHA-1", new TextEncoder().encode(joined)));
}

export async function verifyWechatMessageSignature(
  token: string,
  input: { timestamp: string; nonce: string; encrypted: string; signature: string },
): Promise<boolean> {
  if (!token || typeof input.signature !== "string") return false;
  const expected = await wechatMessageSignature(
    token,
    input.timestamp,
    input.nonce,
    input.encrypted,
  );
  return constantTimeEqual(expected, input.signature.toLowerCase());
}

/** Encrypts a message (reply XML) for `appId`; `random` only fixes the 16 bytes in tests. */
export async function encryptWechatMessage(
  aes: WechatAesKey,
  message: string,
  appId: string,
  random: Uint8Array = crypto.getRandomValues(new Uint8Array(16)),
): Promise<string> {
  const encoder = new TextEncoder();
  const body = encoder.encode(message);
  const app = encoder.encode(appId);
  const length = 16 + 4 + body.length + app.length;
  const pad = WECHAT_BLOCK - (length % WECHAT_BLOCK);
  const plain = new Uint8Array(length + pad);
  plain.set(random.subarray(0, 16), 0);
  new DataView(plain.buffer).setUint32(16, body.length, false);
  plain.set(body, 20);
  plain.set(app, 20 + body.length);
  plain.fill(pad, length);
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-CBC", iv: aes.iv }, aes.key, plain),
  );
  // Web Crypto appended one block of its own padding: WeChat's padding is already in `plain`.
  return toBase64(sealed.subarray(0, plain.length));
}

/**
 * Decrypts `Encrypt`: the message XML and the AppID it was sealed for, after checking padding,
 * length and (when `appId` is given) that AppID.
 */
export async function decryptWechatMessage(
  aes: WechatAesKey,
  encrypted: string,
  appId?: string,
): Promise<{ message: string; appId: string }> {
  let sealed: Uint8Array<ArrayBuffer>;
  try {
    sealed = fromBase64(encrypted);
  } catch {
    throw new WechatCryptoError("malformed");
  }
  if (sealed.length === 0 || sealed.length % WECHAT_BLOCK !== 0) {
    throw new WechatCryptoError("malformed");
  }
  // One more block that decrypts to sixteen 0x10 bytes, which Web Crypto accepts as padding:
  // CBC-encrypting that block after the last ciphertext block gives exactly it.
  const last = sealed.slice(sealed.length - AES_BLOCK);
  const tail = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: "AES-CBC", iv: last },
      aes.key,
      new Uint8Array(AES_BLOCK).fill(AES_BLOCK),
    ),
  ).subarray(0, AES_BLOCK);
  const extended = new Uint8Array(sealed.length + AES_BLOCK);
  extended.set(sealed, 0);
  extended.set(tail, sealed.length);
  let plain: Uint8Array;
  try {
    plain = new Uint8Array(
      await crypto.subtle.decrypt({ name: "AES-CBC", iv: aes.iv }, aes.key, extended),
    );
  } catch {
    throw new WechatCryptoError("malformed");
  }
  const pad = plain[plain.length - 1]!;
  if (pad < 1 || pad > WECHAT_BLOCK || plain.subarray(plain.length - pad).some((b) => b !== pad)) {
    throw new WechatCryptoError("bad_padding");
  }
  const content = plain.subarray(0, plain.length - pad);
  if (content.length < 20) throw new WechatCryptoError("malformed");
  const size = new DataView(content.buffer, content.byteOffset).getUint32(16, false);
  if (20 + size > content.length) throw new WechatCryptoError("malformed");
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let message: string;
  let sender: string;
  try {
    message = decoder.decode(content.subarray(20, 20 + size));
    sender = decoder.decode(content.subarray(20 + size));
  } catch {
    throw new WechatCryptoError("malformed");
  }
  if (appId !== undefined && sender !== appId) throw new WechatCryptoError("wrong_app");
  return { message, appId: sender };
}

/*
 * Official Account template messages (the push channel for notifications).
 *
 * Access token: `POST /cgi-bin/stable_token {grant_type: client_credential, appid, secret,
 * force_refresh}`. stable_token, not `/cgi-bin/token`: several instances share one AppID, and a
 * plain token request invalidates the token the others hold; stable_token hands every caller the
 * same token until it expires. Send: `POST /cgi-bin/message/template/send?access_token=TOKEN
 * {touser, template_id, data: {field: {value}}}` -> `{errcode: 0, errmsg: "ok", msgid}`. Both
 * answer HTTP 200 with `{errcode, errmsg}` on failure.
 */

/** The token was refused on send (40001 invalid credential, 42001 expired, 40014 invalid token). */
const TOKEN_ERRCODES = new Set([40001, 40014, 42001]);
/**
 * The recipient can never receive this template: 43004 not following the account (unsubscribed),
 * 40003 openid not of this account. Retrying would fail the same way.
 */
const RECIPIENT_ERRCODES = new Set([40003, 43004]);
/** A "thing" field of a template holds at most 20 characters. */
const WECHAT_THING_MAX = 20;

export type WechatPushReason = WechatUnavailableReason | "recipient";

/**
 * A template message was not delivered. `permanent`: this recipient cannot receive it (do not
 * retry); otherwise it is transient (busy, quota, network, timeout, our credentials...).
 * `stage` "token" means no access token could be had, so no send was attempted.
 * The message never holds the access token or the secret.
 */
export class WechatPushError extends Error {
  readonly stage: "token" | "send";
  readonly reason: WechatPushReason;
  readonly permanent: boolean;
  readonly status?: number;
  readonly errcode?: number;
  constructor(
    stage: "token" | "send",
    reason: WechatPushReason,
    details: { status?: number; errcode?: number } = {},
  ) {
    const suffix =
      details.errcode !== undefined
        ? ` (errcode ${details.errcode})`
        : details.status !== undefined
          ? ` (HTTP ${details.status})`
          : "";
    super(
      `WeChat ${stage === "token" ? "access token" : "template send"} failed: ${reason}${suffix}`,
    );
    this.name = "WechatPushError";
    this.stage = stage;
    this.reason = reason;
    this.permanent = reason === "recipient";
    if (details.status !== undefined) this.status = details.status;
    if (details.errcode !== undefined) this.errcode = details.errcode;
  }
}

export interface WechatTemplateMessage {
  openid: string;
  /** Template fields by name, e.g. {thing1: "...", time3: "2026-06-01 20:00"}. */
  data: Record<string, string>;
}

export interface WechatTemplateSender {
  readonly templateId: string;
  /** Sends one template message; throws WechatPushError. */
  send(message: WechatTemplateMessage): Promise<{ msgid: string }>;
}

export interface WechatTemplateSenderOptions extends WechatClientOptions {
  templateId: string;
  /** Wall clock for the token cache (WeChat's expiry is real time). Default Date.now. */
  now?: () => number;
}

/** Seconds before WeChat's expiry at which a cached token is no longer used. */
const TOKEN_SAFETY_SECONDS = 300;

/**
 * A template-message sender with an in-memory access token (per process or isolate), fetched
 * on first use and reused until TOKEN_SAFETY_SECONDS before its expiry. Concurrent sends share
 * one token request. A send refused for its token (40001 / 42001 / 40014) force-refreshes the
 * token once and is retried once.
 */
export function createWechatTemplateSender(
  opts: WechatTemplateSenderOptions,
): WechatTemplateSender {
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? 5000;
  const now = opts.now ?? Date.now;
  const base = opts.apiBase.replace(/\/+$/, "");
  let cached: { token: string; until: number } | null = null;
  let inflight: Promise<string> | null = null;

  /** POSTs JSON and returns the parsed object; any transport problem is a WechatPushError. */
  async function post(
    stage: "token" | "send",
    url: string,
    body: unknown,
  ): Promise<Record<string, unknown>> {
    const signal = AbortSignal.timeout(timeoutMs);
    let status: number;
    let text: string;
    try {
      const res = await doFetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(body),
        redirect: "manual",
        signal,
      });
      status = res.status;
      if (status !== 200) {
        await res.body?.cancel().catch(() => {});
        throw new WechatPushError(stage, "http_status", { status });
      }
      text = await res.text();
    } catch (err) {
      if (err instanceof WechatPushError) throw err;
      // No `cause`: fetch errors may echo the URL (the access token) or the body (the secret).
      throw new WechatPushError(stage, signal.aborted ? "timeout" : "network");
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new WechatPushError(stage, "bad_response", { status });
    }
    if (!isRecord(parsed)) throw new WechatPushError(stage, "bad_response", { status });
    return parsed;
  }

  const errcodeOf = (body: Record<string, unknown>): number | null => {
    const { errcode } = body;
    if (errcode === undefined || errcode === 0 || errcode === "0") return 0;
    const n = typeof errcode === "number" ? errcode : Number(errcode);
    return Number.isFinite(n) ? n : null;
  };

  async function fetchToken(forceRefresh: boolean): Promise<string> {
    const body = await post("token", `${base}/cgi-bin/stable_token`, {
      grant_type: "client_credential",
      appid: opts.appId,
      secret: opts.appSecret,
      force_refresh: forceRefresh,
    });
    const errcode = errcodeOf(body);
    if (errcode === null) throw new WechatPushError("token", "bad_response");
    if (errcode !== 0) throw new WechatPushError("token", "rejected", { errcode });
    const { access_token: token, expires_in: expiresIn } = body;
    const seconds = typeof expiresIn === "number" ? expiresIn : Number(expiresIn);
    if (typeof token !== "string" || token.length === 0 || !(seconds > 0)) {
      throw new WechatPushError("token", "bad_response");
    }
    const margin = Math.min(TOKEN_SAFETY_SECONDS, seconds / 2);
    cached = { token, until: now() + (seconds - margin) * 1000 };
    return token;
  }

  /**
   * The cached token, or a fresh one. `stale`: a token WeChat just refused; if it is still the
   * cached one, it is dropped and a forced refresh fetched (once, however many sends saw it).
   */
  function token(stale?: string): Promise<string> {
    if (stale !== undefined && cached?.token === stale) cached = null;
    if (cached && cached.until > now()) return Promise.resolve(cached.token);
    if (!inflight) {
      inflight = fetchToken(stale !== undefined).finally(() => {
        inflight = null;
      });
    }
    return inflight;
  }

  async function sendWith(accessToken: string, message: WechatTemplateMessage) {
    const query = new URLSearchParams({ access_token: accessToken });
    const body = await post("send", `${base}/cgi-bin/message/template/send?${query}`, {
      touser: message.openid,
      template_id: opts.templateId,
      data: Object.fromEntries(
        Object.entries(message.data).map(([key, value]) => [key, { value }]),
      ),
    });
    return { body, errcode: errcodeOf(body) };
  }

  return {
    templateId: opts.templateId,
    async send(message) {
      const first = await token();
      let result = await sendWith(first, message);
      if (result.errcode !== null && TOKEN_ERRCODES.has(result.errcode)) {
        result = await sendWith(await token(first), message);
      }
      const { body, errcode } = result;
      if (errcode === null) throw new WechatPushError("send", "bad_response");
      if (errcode !== 0) {
        throw new WechatPushError(
          "send",
          RECIPIENT_ERRCODES.has(errcode) ? "recipient" : "rejected",
          {
            errcode,
          },
        );
      }
      const { msgid } = body;
      return { msgid: msgid === undefined || msgid === null ? "" : String(msgid) };
    },
  };
}

/**
 * A template "thing" value: whitespace runs collapsed, at most `max` code points (never a split
 * surrogate pair), the last one an ellipsis when cut.
 */
export function truncateThing(value: string, max = WECHAT_THING_MAX): string {
  const points = Array.from(value.replace(/\s+/g, " ").trim());
  if (points.length <= max) return points.join("");
  return `${points.slice(0, max - 1).join("")}…`;
}

const SHANGHAI_OFFSET_MS = 8 * 3_600_000; // China has no daylight saving time

/** A template "time" value: the instant in Asia/Shanghai as "YYYY-MM-DD HH:mm". */
export function wechatTime(at: Date | string): string {
  const shifted = new Date(new Date(at).getTime() + SHANGHAI_OFFSET_MS).toISOString();
  return `${shifted.slice(0, 10)} ${shifted.slice(11, 16)}`;
}
