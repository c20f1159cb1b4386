import { createHash, createHmac, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A fake QStash on 127.0.0.1, speaking the publish protocol `@upstash/qstash`'s Client uses:
 *   POST {QSTASH_URL}/v2/publish/<destination URL>, `Authorization: Bearer <token>`,
 *   `Upstash-*` headers (e.g. `Upstash-Retries`), the message body as is
 * -> 200 {messageId}; a missing or wrong token is 401 `{error}`. `fail("http-500")` makes
 * publishing fail. Published messages are recorded; a test delivers one to the app itself,
 * signed by `signQstash` exactly as QStash signs a delivery.
 */

interface PublishedMessage {
  messageId: string;
  destination: string;
  authorization: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface FakeQstash {
  url: string;
  token: string;
  messages: PublishedMessage[];
  fail(mode: "http-500" | null): void;
  close(): Promise<void>;
}

export async function startFakeQstash(token = "qstash-fake-token-0001"): Promise<FakeQstash> {
  const messages: PublishedMessage[] = [];
  let failure: "http-500" | null = null;

  function json(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = req.url ?? "/";
    const prefix = "/v2/publish/";
    if (req.method !== "POST" || !path.startsWith(prefix)) {
      return json(res, 404, { error: "not found" });
    }
    if (req.headers.authorization !== `Bearer ${token}`) {
      return json(res, 401, { error: "Unauthorized" });
    }
    if (failure === "http-500") return json(res, 500, { error: "internal error" });
    const messageId = `msg_${randomUUID()}`;
    messages.push({
      messageId,
      destination: decodeURIComponent(path.slice(prefix.length)),
      authorization: req.headers.authorization,
      headers: { ...req.headers },
      body: Buffer.concat(chunks).toString("utf8"),
    });
    return json(res, 200, { messageId });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    messages,
    fail(mode) {
      failure = mode;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const base64url = (data: Buffer | string) => Buffer.from(data).toString("base64url");

/**
 * The `Upstash-Signature` QStash sends with a delivery: an HS256 JWT signed with a signing key,
 * claims {iss: "Upstash", sub: destination URL, exp, nbf, iat, jti, body: base64url(sha256(body))}
 * (the Receiver of @upstash/qstash checks issuer, times, sub against the URL and the body hash).
 */
export function signQstash(
  signingKey: string,
  input: { url: string; body: string; nowSeconds?: number; ttlSeconds?: number },
): string {
  const now = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  const header = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const claims = base64url(
    JSON.stringify({
      iss: "Upstash",
      sub: input.url,
      exp: now + (input.ttlSeconds ?? 300),
      nbf: now,
      iat: now,
      jti: `jwt_${randomUUID()}`,
      body: base64url(createHash("sha256").update(input.body).digest()),
    }),
  );
  const signature = base64url(
    createHmac("sha256", signingKey).update(`${header}.${claims}`).digest(),
  );
  return `${header}.${claims}.${signature}`;
}
