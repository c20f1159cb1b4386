import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A fake HTTP mail API on 127.0.0.1 speaking Resend's documented protocol
 * (https://resend.com/docs/api-reference/emails/send-email and .../errors): `POST /emails`,
 * `Authorization: Bearer <key>`, a User-Agent required, a JSON body `{from, to, subject, text?,
 * html?, cc?, reply_to?, attachments?}` where `to` (and `cc`) is an address or a list of at most
 * 50, `reply_to` an address or a list, and each attachment `{filename, content (base64),
 * content_type?}` (40 MB per email after encoding); 200 `{id}`; errors are JSON
 * `{statusCode, message, name}`. Written from the documentation, not from our client.
 */

interface SentEmail {
  id: string;
  from: string;
  to: string[];
  subject: string;
  text?: string;
  html?: string;
  cc?: string[];
  reply_to?: string[];
  /** Decoded from base64. */
  attachments?: { filename: string; content: Buffer; content_type?: string }[];
  headers: Record<string, string | undefined>;
}

const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;
const MAX_EMAIL_BYTES = 40 * 1024 * 1024;

/** `address` or a list of addresses, as `to`, `cc` and `reply_to` take them. */
function addressList(value: unknown): string[] | undefined {
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0 || list.length > 50) return undefined;
  return list.every((a) => typeof a === "string" && ADDRESS_RE.test(a))
    ? (list as string[])
    : undefined;
}

type MailApiFailure = "server-error" | "rate-limited" | "redirect" | "hang" | null;

export interface FakeMailApi {
  url: string;
  apiKey: string;
  /** Every accepted email, in order. */
  sent: SentEmail[];
  /** Every request, accepted or not: status and the body answered. */
  requests: { status: number; body: unknown; headers: Record<string, string | undefined> }[];
  fail(mode: MailApiFailure): void;
  close(): Promise<void>;
}

const ADDRESS_RE = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;
/** `address` or `Name <address>`. */
const isSender = (from: string) =>
  ADDRESS_RE.test(from) || /^[^<>]*<[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>$/.test(from.trim());

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** `attachments` decoded; undefined when absent, null when malformed. */
function parseAttachments(value: unknown): SentEmail["attachments"] | null {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) return null;
  const out: NonNullable<SentEmail["attachments"]> = [];
  for (const a of value as Record<string, unknown>[]) {
    const valid =
      typeof a === "object" &&
      a !== null &&
      typeof a.filename === "string" &&
      a.filename !== "" &&
      typeof a.content === "string" &&
      BASE64_RE.test(a.content) &&
      (a.content_type === undefined || typeof a.content_type === "string");
    if (!valid) return null;
    out.push({
      filename: a.filename as string,
      content: Buffer.from(a.content as string, "base64"),
      ...(typeof a.content_type === "string" ? { content_type: a.content_type } : {}),
    });
  }
  return out;
}

export async function startFakeMailApi(apiKey = "re_test_0123456789abcdef"): Promise<FakeMailApi> {
  const sent: SentEmail[] = [];
  const requests: FakeMailApi["requests"] = [];
  let failure: MailApiFailure = null;

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req);
    const headers = {
      authorization: req.headers.authorization,
      "user-agent": req.headers["user-agent"],
      "content-type": req.headers["content-type"],
    };
    const answer = (status: number, body: unknown) => {
      requests.push({ status, body, headers });
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const error = (statusCode: number, name: string, message: string) =>
      answer(statusCode, { statusCode, message, name });

    if (failure === "hang") return; // never answers
    if (failure === "redirect") {
      requests.push({ status: 307, body: null, headers });
      res.writeHead(307, { location: "http://127.0.0.1:9/emails" });
      res.end();
      return;
    }
    if (req.method !== "POST" || req.url !== "/emails") {
      return error(404, "not_found", "The requested endpoint does not exist.");
    }
    // Resend sits behind Cloudflare, which refuses requests without a User-Agent (error 1010).
    if (!req.headers["user-agent"]) {
      requests.push({ status: 403, body: "error code: 1010", headers });
      res.writeHead(403, { "content-type": "text/plain" });
      res.end("error code: 1010");
      return;
    }
    const auth = req.headers.authorization;
    if (!auth?.startsWith("Bearer ")) {
      return error(401, "missing_api_key", "Missing API key in the authorization header.");
    }
    if (auth.slice("Bearer ".length) !== apiKey) {
      return error(403, "invalid_api_key", "API key is invalid.");
    }
    if (failure === "server-error") {
      return error(500, "application_error", "An unexpected error occurred.");
    }
    if (failure === "rate-limited") {
      return error(
        429,
        "rate_limit_exceeded",
        "Too many requests. You can only make 2 requests per second.",
      );
    }
    if (!req.headers["content-type"]?.startsWith("application/json")) {
      return error(422, "validation_error", "Invalid content type.");
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return error(422, "validation_error", "Invalid JSON body.");
    }
    for (const field of ["from", "to", "subject"]) {
      if (body[field] === undefined) {
        return error(422, "missing_required_field", `Missing \`${field}\` field.`);
      }
    }
    if (raw.length > MAX_EMAIL_BYTES) {
      return error(422, "validation_error", "Email size exceeds the 40MB limit.");
    }
    const to = addressList(body.to);
    if (!to) return error(422, "validation_error", "Invalid `to` field.");
    const cc = body.cc === undefined ? undefined : addressList(body.cc);
    if (body.cc !== undefined && !cc) return error(422, "validation_error", "Invalid `cc` field.");
    const replyTo = body.reply_to === undefined ? undefined : addressList(body.reply_to);
    if (body.reply_to !== undefined && !replyTo) {
      return error(422, "validation_error", "Invalid `reply_to` field.");
    }
    const attachments = parseAttachments(body.attachments);
    if (attachments === null) {
      return error(422, "validation_error", "Invalid `attachments` field.");
    }
    if (typeof body.from !== "string" || !isSender(body.from)) {
      return error(
        422,
        "validation_error",
        "Invalid `from` field. The email address needs to follow the `email@example.com` or `Name <email@example.com>` format.",
      );
    }
    if (typeof body.subject !== "string" || (body.text === undefined && body.html === undefined)) {
      return error(422, "validation_error", "Invalid `subject`, or no `text` or `html` body.");
    }
    const id = randomUUID();
    sent.push({
      id,
      from: body.from,
      to,
      ...(cc ? { cc } : {}),
      ...(replyTo ? { reply_to: replyTo } : {}),
      ...(attachments ? { attachments } : {}),
      subject: body.subject,
      ...(typeof body.text === "string" ? { text: body.text } : {}),
      ...(typeof body.html === "string" ? { html: body.html } : {}),
      headers,
    });
    answer(200, { id });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    sent,
    requests,
    fail(mode) {
      failure = mode;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
