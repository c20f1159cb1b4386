import type { AddressInfo } from "node:net";
import { type AddressObject, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/**
 * A real SMTP server on 127.0.0.1 (the smtp-server package) that requires AUTH with the
 * credentials of its URL and keeps every message it accepted, parsed with mailparser: tests
 * read the mail exactly as a mailbox would, links and all.
 */

export interface ReceivedMail {
  /** SMTP envelope: MAIL FROM and RCPT TO as the client sent them. */
  envelopeFrom: string;
  envelopeTo: string[];
  /** Parsed headers and bodies. */
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  /** Every http(s) link of the text body. */
  links: string[];
  /** Parsed `Cc` and `Reply-To` headers (empty when absent). */
  cc: string;
  replyTo: string;
  /** Every attachment, decoded, as a mailbox opens it. */
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

/** A command the server acted on, and whether the connection was under TLS at the time. */
interface SmtpEvent {
  command: "AUTH" | "MAIL FROM" | "RCPT TO" | "DATA";
  secure: boolean;
}

export interface FakeSmtp {
  /** `smtp://user:pass@127.0.0.1:port`, as SMTP_URL. */
  url: string;
  user: string;
  pass: string;
  /** Every accepted message, in order. */
  messages: ReceivedMail[];
  /** Every AUTH, MAIL FROM, RCPT TO and DATA the server received, in order, accepted or not. */
  events: SmtpEvent[];
  /** Messages whose envelope named this recipient (case-insensitive). */
  mailsTo(address: string): ReceivedMail[];
  /** Resolves with the first message (already received or next) that matches. */
  waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** Makes RCPT TO answer this SMTP code (e.g. 550, 451); null accepts again. */
  rejectRecipients(code: number | null): void;
  close(): Promise<void>;
}

const LINK_RE = /https?:\/\/[^\s<>"]+/g;

/** A parsed address header (one or several) as text; "" when absent. */
const addressText = (value: AddressObject | AddressObject[] | undefined) =>
  Array.isArray(value) ? value.map((a) => a.text).join(", ") : (value?.text ?? "");

export async function startFakeSmtp(
  options: {
    user?: string;
    pass?: string;
    /** Offer STARTTLS with this certificate (and refuse AUTH before it); unset: no STARTTLS. */
    tls?: { key: string; cert: string };
  } = {},
): Promise<FakeSmtp> {
  const user = options.user ?? "mailer";
  const pass = options.pass ?? "s3cret-pass";
  const messages: ReceivedMail[] = [];
  const waiters: { match: (m: ReceivedMail) => boolean; resolve: (m: ReceivedMail) => void }[] = [];
  const events: SmtpEvent[] = [];
  let rcptCode: number | null = null;

  const server = new SMTPServer({
    logger: false,
    authOptional: false,
    // Without TLS: plain AUTH over a plain socket, fine on 127.0.0.1 (and a client that sends
    // its password in clear shows in `events`). With TLS: AUTH only after STARTTLS.
    ...(options.tls
      ? { key: options.tls.key, cert: options.tls.cert, allowInsecureAuth: false }
      : { allowInsecureAuth: true, disabledCommands: ["STARTTLS"] }),
    disableReverseLookup: true,
    onAuth(auth, session, callback) {
      events.push({ command: "AUTH", secure: session.secure });
      if (auth.username === user && auth.password === pass) {
        callback(null, { user: auth.username });
      } else {
        callback(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
      }
    },
    onMailFrom(_address, session, callback) {
      events.push({ command: "MAIL FROM", secure: session.secure });
      callback();
    },
    onRcptTo(_address, session, callback) {
      events.push({ command: "RCPT TO", secure: session.secure });
      if (rcptCode === null) return callback();
      callback(Object.assign(new Error("Recipient refused"), { responseCode: rcptCode }));
    },
    onData(stream, session, callback) {
      events.push({ command: "DATA", secure: session.secure });
      simpleParser(stream)
        .then((parsed) => {
          const text = parsed.text ?? "";
          const mail: ReceivedMail = {
            envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            envelopeTo: session.envelope.rcptTo.map((r) => r.address),
            from: parsed.from?.text ?? "",
            to: addressText(parsed.to),
            subject: parsed.subject ?? "",
            text,
            html: typeof parsed.html === "string" ? parsed.html : null,
            links: text.match(LINK_RE) ?? [],
            cc: addressText(parsed.cc),
            replyTo: parsed.replyTo?.text ?? "",
            attachments: parsed.attachments.map((a) => ({
              filename: a.filename ?? "",
              contentType: a.contentType,
              content: a.content,
            })),
          };
          messages.push(mail);
          for (const waiter of [...waiters]) {
            if (waiter.match(mail)) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve(mail);
            }
          }
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://${encodeURIComponent(user)}:${encodeURIComponent(pass)}@127.0.0.1:${port}`,
    user,
    pass,
    messages,
    events,
    mailsTo: (address) =>
      messages.filter((m) => m.envelopeTo.some((to) => to.toLowerCase() === address.toLowerCase())),
    waitFor(match, timeoutMs = 5_000) {
      const found = messages.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = {
          match,
          resolve: (mail: ReceivedMail) => {
            clearTimeout(timer);
            resolve(mail);
          },
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no matching mail within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    rejectRecipients(code) {
      rcptCode = code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The `token` query parameter of the first link in a mail. */
export function tokenOf(mail: ReceivedMail): string {
  const link = mail.links.find((l) => l.includes("token="));
  if (!link) throw new Error(`no link with a token in: ${mail.text}`);
  return new URL(link).searchParams.get("token")!;
}
