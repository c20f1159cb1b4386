/**
 * Mail through an HTTP API speaking Resend's documented protocol (docs/mail.md):
 * `POST {apiUrl}/emails` with `Authorization: Bearer <key>` and a User-Agent (Resend refuses
 * requests without one), JSON `{from, to: [address], cc?, reply_to?, subject, text, html?,
 * attachments?: [{filename, content (base64), content_type}]}`; success is 200 `{id}`, failure a
 * JSON `{statusCode, message, name}`. Edge-safe: fetch only.
 */
import { base64 } from "../../lib/crypto";
import { MailError, type Mailer, type MailMessage, recipientsOf } from "./types";

export interface HttpMailerOptions {
  /** MAIL_API_URL, e.g. `https://api.resend.com`; a path prefix is kept. */
  apiUrl: string;
  apiKey: string;
  /** MAIL_FROM: `Name <address>` or an address. */
  from: string;
  fetch?: typeof fetch;
  /** Whole-request deadline, body included. Default 10000 ms. */
  timeoutMs?: number;
}

const USER_AGENT = "trade-assistant-service";
const ERROR_NAME_RE = /^[a-z0-9_]{1,64}$/;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The provider's `name` (a machine code), if the body is its error shape. */
function errorName(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const name = (body as { name?: unknown }).name;
  return typeof name === "string" && ERROR_NAME_RE.test(name) ? name : undefined;
}

/** The documented JSON body of one message. */
function wireBody(from: string, message: MailMessage) {
  return {
    from,
    to: [...recipientsOf(message)],
    ...(message.cc?.length ? { cc: [...message.cc] } : {}),
    ...(message.replyTo !== undefined ? { reply_to: message.replyTo } : {}),
    subject: message.subject,
    text: message.text,
    ...(message.html !== undefined ? { html: message.html } : {}),
    ...(message.attachments?.length
      ? {
          attachments: message.attachments.map((a) => ({
            filename: a.filename,
            content: base64(a.content),
            content_type: a.contentType,
          })),
        }
      : {}),
  };
}

export function createHttpMailer(options: HttpMailerOptions): Mailer {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const endpoint = `${options.apiUrl.replace(/\/+$/, "")}/emails`;

  return {
    kind: "http",
    async send(message) {
      const body = JSON.stringify(wireBody(options.from, message));
      const signal = AbortSignal.timeout(timeoutMs);
      let status: number;
      let text: string;
      try {
        const res = await doFetch(endpoint, {
          method: "POST",
          headers: {
            authorization: `Bearer ${options.apiKey}`,
            "content-type": "application/json",
            accept: "application/json",
            "user-agent": USER_AGENT,
          },
          body,
          // A redirect would carry the key to wherever it points; a mail API never redirects.
          redirect: "manual",
          signal,
        });
        status = res.status;
        text = await res.text();
      } catch {
        // No `cause`: transport errors may echo the URL or headers.
        throw new MailError(signal.aborted ? "timeout" : "network");
      }
      const json = parseJson(text);
      if (status >= 200 && status < 300) {
        const id = (json as { id?: unknown } | undefined)?.id;
        if (typeof id !== "string" || id === "") throw new MailError("unavailable", { status });
        return;
      }
      const code = errorName(json);
      const details = { status, ...(code ? { code } : {}) };
      if (status === 401 || status === 403) throw new MailError("rejected", details);
      if (status === 429) throw new MailError("rate_limited", details);
      // A 4xx in the provider's error shape refuses this message; anything else (3xx, 5xx, a
      // proxy's page) means the provider is not answering as it should.
      if (status >= 400 && status < 500 && code) throw new MailError("invalid_message", details);
      throw new MailError("unavailable", details);
    },
  };
}
