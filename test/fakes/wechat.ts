import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A fake WeChat API on 127.0.0.1 speaking the real wire protocol of
 * `GET /sns/oauth2/access_token?appid=&secret=&code=&grant_type=authorization_code`:
 * HTTP 200 with either the token JSON or `{errcode, errmsg}`, in WeChat's order of checks.
 * Codes are single use. Like WeChat, the JSON is not labelled application/json.
 */

export const FAKE_WECHAT_APP_ID = "wx0123456789abcdef";
export const FAKE_WECHAT_APP_SECRET = "fake-wechat-app-secret-0123456789";

/** How the fake misbehaves instead of answering normally. */
export type FakeWechatFailure = "http-502" | "non-json" | "hang" | null;

export interface FakeWechat {
  url: string;
  appId: string;
  appSecret: string;
  /** Mints a one-time login code for this user, as the WeChat app would hand to the client. */
  issueCode(openid: string, unionid?: string): string;
  /** Makes every following request fail this way (null restores normal answers). */
  fail(mode: FakeWechatFailure): void;
  /** Query strings of the requests received, for assertions. */
  requests: URLSearchParams[];
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
  opts: { appId?: string; appSecret?: string } = {},
): Promise<FakeWechat> {
  const appId = opts.appId ?? FAKE_WECHAT_APP_ID;
  const appSecret = opts.appSecret ?? FAKE_WECHAT_APP_SECRET;
  const codes = new Map<string, IssuedCode>();
  const requests: URLSearchParams[] = [];
  let failure: FakeWechatFailure = null;

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
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
