import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../src/lib/logger";
import { provideCjkFont } from "../../src/modules/quotations/pdf-font";
import { createHttpMailer } from "../../src/providers/mail/http";
import { createLogMailer } from "../../src/providers/mail/log";
import { MailError } from "../../src/providers/mail/types";
import { nodeCjkFont } from "../../src/runtime/node/cjk-font";
import { createSmtpMailer } from "../../src/runtime/node/smtp-mailer";
import { startFakeMailApi } from "../fakes/mail-api";
import { startFakeSmtp } from "../fakes/smtp";
import { call, expectStatus, registerUser, type Session, api as typed } from "../support/client";
import { createTestContext } from "../support/harness";

// POST /api/v1/quotations/{id}/send (issue #23): the mail is read by a real SMTP server
// (smtp-server, parsed with mailparser) and its attachment opened.

const FROM = "Trade Assistant <no-reply@trade.example>";
const smtp = await startFakeSmtp();
afterAll(() => smtp.close());
afterEach(() => smtp.rejectRecipients(null));
provideCjkFont(nodeCjkFont);
const ctx = await createTestContext({
  runtime: { mailer: createSmtpMailer({ url: smtp.url, from: FROM }) },
});
const { app } = ctx;

const send = (user: Session, id: string, json: unknown, headers: Record<string, string> = {}) =>
  call(app, `/api/v1/quotations/${id}/send`, {
    token: user.accessToken,
    csrf: user.csrfToken,
    json,
    headers,
  });

/** A seller with a customer they hold and a draft quotation for it (priced lines). */
async function draft(
  items?: { name: string; quantity: number; unit_price: number }[],
  name = "Li Wei",
) {
  const user = await registerUser(app, { name });
  const t = typed(app);
  const customer = await t.post("/api/v1/customers", {
    token: user.accessToken,
    json: { company: "Acme GmbH", contact_name: "Anna Schmidt", email: "anna@acme.example" },
  });
  expectStatus(customer, 201);
  const created = await t.post("/api/v1/quotations", {
    token: user.accessToken,
    json: {
      customer_id: customer.body.id,
      currency: "USD",
      items: items ?? [
        { name: "Stainless steel vacuum flask", quantity: 500, unit_price: 1299 },
        { name: "Bamboo lid", quantity: 500, unit_price: 250 },
      ],
    },
  });
  expectStatus(created, 201);
  return { user, customerId: customer.body.id, quotation: created.body };
}

const followups = async (user: Session, customerId: string) => {
  const res = await typed(app).get("/api/v1/customers/{id}/followups", {
    token: user.accessToken,
    params: { id: customerId },
  });
  expectStatus(res, 200);
  return res.body.items;
};

const statusOf = async (user: Session, id: string) => {
  const res = await typed(app).get("/api/v1/quotations/{id}", {
    token: user.accessToken,
    params: { id },
  });
  expectStatus(res, 200);
  return res.body.status;
};

const balance = async (user: Session) =>
  (await call(app, "/api/v1/credits/balance", { token: user.accessToken })).body.balance;

function pdfText(bytes: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), "quote-mail-"));
  const file = join(dir, "q.pdf");
  writeFileSync(file, bytes);
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}

describe("POST /quotations/{id}/send", () => {
  it("mails the PDF to the buyer (reply-to the member), marks the quotation sent and logs a follow-up", async () => {
    const { user, customerId, quotation } = await draft();
    const before = await balance(user);
    const res = await send(
      user,
      quotation.id,
      {
        to: "Buyer@Acme.example",
        cc: ["purchasing@acme.example"],
        message: "Dear Anna,\n\nas discussed, our offer for the flasks.",
      },
      { "Idempotency-Key": `send-${quotation.id}` },
    );
    expect(res.status).toBe(200);
    expect(res.body.quotation.status).toBe("sent");
    expect(res.body.mail).toMatchObject({
      to: ["buyer@acme.example"],
      cc: ["purchasing@acme.example"],
      reply_to: user.email,
      format: "pdf",
      filename: `${quotation.quote_no}.pdf`,
      provider: "smtp",
    });

    const mail = await smtp.waitFor((m) => m.subject.includes(quotation.quote_no));
    expect(mail.envelopeTo.sort()).toEqual(["buyer@acme.example", "purchasing@acme.example"]);
    expect(mail.replyTo).toContain(user.email);
    expect(mail.cc).toContain("purchasing@acme.example");
    expect(mail.subject).toBe(`Quotation ${quotation.quote_no} from Li Wei`);
    expect(mail.text).toContain("as discussed, our offer for the flasks.");
    expect(mail.attachments).toHaveLength(1);
    const [attachment] = mail.attachments;
    expect(attachment!.filename).toBe(`${quotation.quote_no}.pdf`);
    expect(attachment!.contentType).toBe("application/pdf");
    expect(attachment!.content.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const text = pdfText(attachment!.content);
    expect(text).toContain(quotation.quote_no);
    expect(text).toContain("Stainless steel vacuum flask");

    const logs = await followups(user, customerId);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ channel: "email", user_id: user.userId });
    expect(logs[0]!.note).toContain(quotation.quote_no);
    expect(logs[0]!.note).toContain("as discussed, our offer for the flasks.");
    expect(await balance(user)).toBe(before); // sending costs nothing
    // Sent moves the customer's stage forward (new -> quoted), as PATCH {status: "sent"} does.
    const customer = await call(app, `/api/v1/customers/${customerId}`, {
      token: user.accessToken,
    });
    expect(customer.body.status).toBe("quoted");

    // The same key again: the first answer, no second mail, no second follow-up.
    const mails = smtp.messages.length;
    const again = await send(
      user,
      quotation.id,
      {
        to: "Buyer@Acme.example",
        cc: ["purchasing@acme.example"],
        message: "Dear Anna,\n\nas discussed, our offer for the flasks.",
      },
      { "Idempotency-Key": `send-${quotation.id}` },
    );
    expect(again.status).toBe(200);
    expect(again.res.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.body.followup.id).toBe(res.body.followup.id);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(smtp.messages.length).toBe(mails);
    expect(await followups(user, customerId)).toHaveLength(1);
  });

  it("sends the xlsx when asked, and a sent quotation may be sent again (a second follow-up)", async () => {
    const { user, customerId, quotation } = await draft();
    expect((await send(user, quotation.id, { to: "a@buyer.example" })).status).toBe(200);
    const res = await send(user, quotation.id, {
      to: ["b@buyer.example"],
      format: "xlsx",
      subject: "Revised delivery terms",
    });
    expect(res.status).toBe(200);
    const mail = await smtp.waitFor((m) => m.subject === "Revised delivery terms");
    expect(mail.envelopeTo).toEqual(["b@buyer.example"]);
    expect(mail.attachments[0]!.filename).toBe(`${quotation.quote_no}.xlsx`);
    expect(mail.attachments[0]!.contentType).toBe(
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    expect(mail.attachments[0]!.content.subarray(0, 2).toString("latin1")).toBe("PK");
    const logs = await followups(user, customerId);
    expect(logs).toHaveLength(2);
    expect(logs.every((l) => l.channel === "email")).toBe(true);
    expect(await statusOf(user, quotation.id)).toBe("sent");
  });

  it("a recipient the SMTP server refuses: 502 mail_failed, the quotation still a draft, no follow-up, no charge", async () => {
    const { user, customerId, quotation } = await draft();
    const before = await balance(user);
    smtp.rejectRecipients(550);
    const res = await send(
      user,
      quotation.id,
      { to: "nobody@acme.example" },
      { "Idempotency-Key": `fail-${quotation.id}` },
    );
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: "mail_failed", reason: "invalid_message" });
    expect(res.body.detail).toMatch(/recipient/);
    expect(JSON.stringify(res.body)).not.toMatch(/Recipient refused|550/);
    expect(await statusOf(user, quotation.id)).toBe("draft");
    expect(await followups(user, customerId)).toHaveLength(0);
    expect(await balance(user)).toBe(before);

    // The key was freed: the same request succeeds once the server accepts again.
    smtp.rejectRecipients(null);
    const retry = await send(
      user,
      quotation.id,
      { to: "nobody@acme.example" },
      { "Idempotency-Key": `fail-${quotation.id}` },
    );
    expect(retry.status).toBe(200);
    expect(await followups(user, customerId)).toHaveLength(1);
  });

  it("a mail server that cannot be reached: 502 mail_failed (network), nothing written", async () => {
    const { user, customerId, quotation } = await draft();
    const down = await ctx.makeApp({
      // A port nothing listens on.
      mailer: createSmtpMailer({ url: "smtp://u:p@127.0.0.1:9", from: FROM, timeoutMs: 2000 }),
    });
    const res = await call(down, `/api/v1/quotations/${quotation.id}/send`, {
      token: user.accessToken,
      csrf: user.csrfToken,
      json: { to: "buyer@acme.example" },
    });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: "mail_failed", reason: "network" });
    expect(await statusOf(user, quotation.id)).toBe("draft");
    expect(await followups(user, customerId)).toHaveLength(0);
  });

  it("no mail provider configured: 503, nothing written", async () => {
    const { user, quotation } = await draft();
    const logOnly = await ctx.makeApp({ mailer: createLogMailer(createLogger("silent")) });
    const res = await call(logOnly, `/api/v1/quotations/${quotation.id}/send`, {
      token: user.accessToken,
      csrf: user.csrfToken,
      json: { to: "buyer@acme.example" },
    });
    expect(res.status).toBe(503);
    expect(res.body.detail).toMatch(/SMTP_URL or MAIL_API_KEY/);
    expect(await statusOf(user, quotation.id)).toBe("draft");
  });

  it("refuses a quotation with a line priced 0 (409 quotation_unpriced, naming the lines)", async () => {
    const { user, customerId, quotation } = await draft([
      { name: "Flask", quantity: 10, unit_price: 1299 },
      { name: "Unmatched inquiry line", quantity: 5, unit_price: 0 },
    ]);
    const res = await send(user, quotation.id, { to: "buyer@acme.example" });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "quotation_unpriced", lines: [2] });
    expect(await statusOf(user, quotation.id)).toBe("draft");
    expect(await followups(user, customerId)).toHaveLength(0);
  });

  it("refuses a quotation past sent (409), another seller's (404), and bad addresses (422)", async () => {
    const { user, quotation } = await draft();
    const other = await registerUser(app);
    expect((await send(other, quotation.id, { to: "buyer@acme.example" })).status).toBe(404);

    for (const body of [
      { to: "not-an-address" },
      { to: [] },
      { to: "buyer@acme.example", cc: ["fine@acme.example", "bad address"] },
      {
        to: Array.from({ length: 6 }, (_, i) => `b${i}@acme.example`),
        cc: Array.from({ length: 5 }, (_, i) => `c${i}@acme.example`),
      },
      { to: "buyer@acme.example", subject: "Quote\r\nBcc: victim@example.com" },
      { to: "buyer@acme.example", format: "docx" },
      { to: "buyer@acme.example", bcc: ["hidden@acme.example"] },
    ]) {
      const res = await send(user, quotation.id, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toBe("validation_failed");
    }

    const t = typed(app);
    for (const status of ["sent", "accepted"] as const) {
      const moved = await t.patch("/api/v1/quotations/{id}", {
        token: user.accessToken,
        params: { id: quotation.id },
        json: { status },
      });
      expectStatus(moved, 200);
    }
    const res = await send(user, quotation.id, { to: "buyer@acme.example" });
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/accepted quotation cannot be sent/);

    // A revision supersedes it: the old one cannot be sent, the new draft can.
    const revised = await call(app, `/api/v1/quotations/${quotation.id}/revisions`, {
      token: user.accessToken,
      json: {},
    });
    expect(revised.status).toBe(201);
    const old = await send(user, quotation.id, { to: "buyer@acme.example" });
    expect(old.status).toBe(409);
    expect(old.body.detail).toMatch(/superseded quotation cannot be sent/);
    const sent = await send(user, revised.body.id, { to: "buyer@acme.example" });
    expect(sent.status).toBe(200);
    expect(sent.body.mail.filename).toBe(`${revised.body.quote_no}-R1.pdf`);
    expect(sent.body.mail.subject).toBe(`Quotation ${revised.body.quote_no}-R1 from Li Wei`);
  });

  it("needs the CSRF token (C) and is rate-limited per member (20 an hour)", async () => {
    const { user, quotation } = await draft();
    const noCsrf = await call(app, `/api/v1/quotations/${quotation.id}/send`, {
      token: user.accessToken,
      json: { to: "buyer@acme.example" },
    });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.code).toBe("csrf_missing");
    // Refused bodies spend the budget too: the limit counts attempts at mailing.
    for (let i = 0; i < 20; i++) {
      expect((await send(user, quotation.id, { to: "x" })).status).toBe(422);
    }
    const limited = await send(user, quotation.id, { to: "buyer@acme.example" });
    expect(limited.status).toBe(429);
    expect(limited.res.headers.get("Retry-After")).toBeTruthy();
  });
});

describe("the mail port's attachments", () => {
  it("the HTTP mail API gets them as Resend documents: base64 content, filename, content_type; cc and reply_to", async () => {
    const api = await startFakeMailApi();
    try {
      const mailer = createHttpMailer({ apiUrl: api.url, apiKey: api.apiKey, from: FROM });
      const content = new Uint8Array(70_000).map((_, i) => i % 251);
      await mailer.send({
        to: ["buyer@acme.example", "second@acme.example"],
        cc: ["cc@acme.example"],
        replyTo: "seller@maker.example",
        subject: "Quotation Q-1",
        text: "attached",
        attachments: [{ filename: "Q-1.pdf", contentType: "application/pdf", content }],
      });
      const sent = api.sent.at(-1)!;
      expect(sent.to).toEqual(["buyer@acme.example", "second@acme.example"]);
      expect(sent.cc).toEqual(["cc@acme.example"]);
      expect(sent.reply_to).toEqual(["seller@maker.example"]);
      expect(sent.attachments).toHaveLength(1);
      expect(sent.attachments![0]).toMatchObject({
        filename: "Q-1.pdf",
        content_type: "application/pdf",
      });
      expect(new Uint8Array(sent.attachments![0]!.content)).toEqual(content);

      // A refused recipient (422 validation_error) is the message's fault: invalid_message.
      const error = await mailer
        .send({ to: "not an address", subject: "s", text: "t" })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MailError);
      expect((error as MailError).reason).toBe("invalid_message");
    } finally {
      await api.close();
    }
  });

  it("the send route over the HTTP mail API delivers the same attachment", async () => {
    const api = await startFakeMailApi();
    try {
      const viaApi = await ctx.makeApp({
        mailer: createHttpMailer({ apiUrl: api.url, apiKey: api.apiKey, from: FROM }),
      });
      const { user, customerId, quotation } = await draft();
      const res = await call(viaApi, `/api/v1/quotations/${quotation.id}/send`, {
        token: user.accessToken,
        csrf: user.csrfToken,
        json: { to: "buyer@acme.example" },
      });
      expect(res.status).toBe(200);
      expect(res.body.mail.provider).toBe("http");
      const sent = api.sent.at(-1)!;
      expect(sent.reply_to).toEqual([user.email]);
      const pdf = sent.attachments![0]!.content;
      expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      expect(pdfText(pdf)).toContain(quotation.quote_no);
      expect(await followups(user, customerId)).toHaveLength(1);

      api.fail("server-error");
      const { user: u2, customerId: c2, quotation: q2 } = await draft();
      const failed = await call(viaApi, `/api/v1/quotations/${q2.id}/send`, {
        token: u2.accessToken,
        csrf: u2.csrfToken,
        json: { to: "buyer@acme.example" },
      });
      expect(failed.status).toBe(502);
      expect(failed.body).toMatchObject({ code: "mail_failed", reason: "unavailable" });
      expect(await statusOf(u2, q2.id)).toBe("draft");
      expect(await followups(u2, c2)).toHaveLength(0);
    } finally {
      await api.close();
    }
  });
});
