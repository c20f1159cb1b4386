/**
 * WeChat Open Platform client (website / mobile app login) and the server-verification signature.
 * Edge-safe: fetch and Web Crypto only.
 *
 * Login: the client app obtains a one-time `code` (valid ~5 minutes, single use) and the server
 * exchanges it at `GET /sns/oauth2/access_token`. WeChat answers HTTP 200 for both outcomes:
 * `{access_token, expires_in, refresh_token, openid, scope, unionid?}` or `{errcode, errmsg}`.
 * The body is JSON but is not reliably labelled `application/json`, so it is parsed from text.
 */

export const WECHAT_API_BASE = "https://api.weixin.qq.com";

export interface WechatIdentity {
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
      const signal = AbortSignal.timeout(timeoutMs);

      let status: number;
      let text: string;
      try {
        const res = await doFetch(`${endpoint}?${query}`, {
          method: "GET",
          headers: { accept: "application/json" },
          redirect: "manual",
          signal,
        });
        status = res.status;
        if (status !== 200) {
          await res.body?.cancel().catch(() => {});
          throw new WechatUnavailableError("http_status", { status });
        }
        text = await res.text();
      } catch (err) {
        if (err instanceof WechatUnavailableError) throw err;
        // Deliberately no `cause`: fetch errors may echo the request URL, which holds the secret.
        throw new WechatUnavailableError(signal.aborted ? "timeout" : "network");
      }

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
