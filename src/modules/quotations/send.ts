import { withTransaction } from "../../db/client";
import { ApiError, conflict, notFound, unavailable } from "../../http/errors";
import type { Deps } from "../../ports";
import { MailError, type MailErrorReason, type MailMessage } from "../../providers/mail/types";
import { logFollowup } from "../customers/service";
import { getAccount } from "../users/queries/account";
import { makeDocument } from "./make-document";
import * as queries from "./queries";
import type { QuotationSendInput } from "./send-schemas";
import { documentFileName, getQuotation, quotableCustomer, quotationDocument } from "./service";
import { assertPriced } from "./unpriced";
import type { QuotationDocument } from "./view";

// POST /api/v1/quotations/{id}/send (issue #23, docs/mail.md, ADR 0107): the document mailed
// as an attachment, then, once the provider has taken it, the quotation marked sent and a
// follow-up logged on its customer, in one transaction. A refused or failed mail writes nothing.

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
/** Statuses a quotation may be sent from: a draft, or one already sent (sent again). */
const SENDABLE = ["draft", "sent"] as const;

/** What the member is told when the provider did not take the mail (no provider text, ever). */
const MAIL_FAILED: Record<MailErrorReason, string> = {
  invalid_message:
    "The mail server refused the message: check the recipient addresses (nothing was sent, the quotation is unchanged)",
  network: "The mail server could not be reached; try again shortly (the quotation is unchanged)",
  timeout: "The mail server did not answer in time; try again shortly (the quotation is unchanged)",
  rejected:
    "The mail server refused the service's credentials: tell your administrator (the quotation is unchanged)",
  rate_limited:
    "The mail server asked to slow down; try again in a few minutes (the quotation is unchanged)",
  unavailable: "The mail service failed; try again shortly (the quotation is unchanged)",
};

const recipients = (to: string | string[]) => (typeof to === "string" ? [to] : to);
const lower = (list: readonly string[]) => [...new Set(list.map((a) => a.toLowerCase()))];

/** The follow-up's note: the member's message, else what was sent to whom. */
function followupNote(quoteNo: string, to: readonly string[], message: string | undefined) {
  const sent = `Quotation ${quoteNo} sent by e-mail to ${to.join(", ")}`;
  return message ? `${sent}:\n${message}` : sent;
}

/**
 * The quotation the member may send, as its document shows it: one they may change
 * (src/db/scope.ts, write; a read-only one is not found), a draft or sent one, every line priced,
 * its customer (if any) theirs to log a contact on.
 */
async function sendableDocument(deps: Deps, userId: string, id: string) {
  if (!(await queries.getQuotationPricing(deps.db, { userId, id }))) {
    throw notFound("Quotation not found");
  }
  const doc = await quotationDocument(deps, userId, id);
  const { quotation } = doc;
  if (!(SENDABLE as readonly string[]).includes(quotation.status)) {
    throw conflict(
      `A ${quotation.status} quotation cannot be sent; make a revision of it (POST /api/v1/quotations/{id}/revisions) and send that`,
    );
  }
  assertPriced(quotation.items);
  if (quotation.customer_id) {
    const quotable = await quotableCustomer(deps, userId, quotation.customer_id);
    if (quotable === "pool") {
      throw conflict(
        "The quotation's customer is in the pool: claim it (POST /api/v1/customers/{id}/claim) before sending",
      );
    }
    if (quotable !== "yes") {
      throw conflict("The quotation's customer is held by another member: they send it");
    }
  }
  return doc;
}

/** Subject, text and attachment name of the mail; reply-to is the sending member's address. */
function composeMail(doc: QuotationDocument, input: QuotationSendInput, replyTo: string | null) {
  const { quotation, parties } = doc;
  const seller = parties.seller_company || parties.seller_name || "";
  // A revision's number names it (Q-...-R1), as the export's file name does.
  const number =
    quotation.revision > 0 ? `${quotation.quote_no}-R${quotation.revision}` : quotation.quote_no;
  const subject = input.subject ?? `Quotation ${number}${seller ? ` from ${seller}` : ""}`;
  const filename = documentFileName(doc, input.format);
  const greeting = parties.customer_contact ? `Dear ${parties.customer_contact},` : "Hello,";
  const body = input.message ?? `${greeting}\n\nPlease find attached our quotation ${number}.`;
  const signature = [parties.seller_name, parties.seller_company, replyTo]
    .filter(Boolean)
    .join("\n");
  return { number, subject, filename, text: `${body}\n\n${signature ? `--\n${signature}\n` : ""}` };
}

/** Hands the mail to the provider; a refusal or failure is a 502 `mail_failed` with its reason. */
async function mail(deps: Deps, context: { id: string; userId: string }, message: MailMessage) {
  try {
    await deps.mailer.send(message);
  } catch (error) {
    if (!(error instanceof MailError)) throw error;
    deps.logger.warn("quotation mail not sent", {
      quotation_id: context.id,
      user_id: context.userId,
      provider: deps.mailer.kind,
      reason: error.reason,
      ...(error.status !== undefined ? { status: error.status } : {}),
      ...(error.code !== undefined ? { code: error.code } : {}),
    });
    throw new ApiError(502, MAIL_FAILED[error.reason], {
      code: "mail_failed",
      extra: { reason: error.reason },
    });
  }
}

export async function sendQuotation(
  deps: Deps,
  userId: string,
  id: string,
  input: QuotationSendInput,
) {
  const doc = await sendableDocument(deps, userId, id);
  const { quotation } = doc;
  const provider = deps.mailer.kind;
  if (provider === "log") {
    throw unavailable(
      "No mail provider is configured (SMTP_URL or MAIL_API_KEY): download the document and send it yourself",
    );
  }
  const to = lower(recipients(input.to));
  const cc = lower(input.cc ?? []).filter((a) => !to.includes(a));
  const rendered = await makeDocument(deps, input.format, doc);

  const replyTo = (await getAccount(deps.db, { id: userId }))?.email ?? null;
  const { number, subject, filename, text } = composeMail(doc, input, replyTo);
  await mail(
    deps,
    { id, userId },
    {
      to,
      ...(cc.length > 0 ? { cc } : {}),
      ...(replyTo ? { replyTo } : {}),
      subject,
      text,
      attachments: [
        {
          filename,
          contentType: input.format === "pdf" ? "application/pdf" : XLSX_TYPE,
          content: rendered,
        },
      ],
    },
  );

  // The mail is out: mark it sent and log the contact together. Should the quotation have left
  // draft/sent meanwhile (accepted in another tab), nothing is written and the member is told.
  const customerId = quotation.customer_id;
  const followup = await withTransaction(deps.db, async (tx) => {
    const marked = await queries.updateQuotation(tx, {
      userId,
      id,
      fields: {},
      status: "sent",
      draftOnly: false,
      allowedFrom: [...SENDABLE],
    });
    if (marked.length === 0) {
      throw conflict(
        "The mail was sent, but the quotation changed status meanwhile and was not marked sent",
      );
    }
    if (!customerId) return null;
    const logged = await logFollowup({ ...deps, db: tx }, userId, customerId, {
      channel: "email",
      note: followupNote(number, [...to, ...cc], input.message),
    });
    return logged.followup;
  });

  return {
    quotation: await getQuotation(deps, userId, id),
    followup,
    mail: {
      to,
      cc,
      reply_to: replyTo,
      subject,
      format: input.format,
      filename,
      bytes: rendered.byteLength,
      provider,
    },
  };
}
