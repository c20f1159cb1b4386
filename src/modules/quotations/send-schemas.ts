import { z } from "@hono/zod-openapi";
import { FollowupResultSchema } from "../customers/schemas";
import { QuotationSchema } from "./schemas";

/** To and cc together: a quotation goes to a buyer's few people, never to a list. */
const SEND_RECIPIENTS_MAX = 10;
const SEND_MESSAGE_MAX = 5000;

/** A mailbox address: no display name, no control characters (they would end a header). */
const address = z
  .email({ error: "Not a valid e-mail address" })
  .max(254)
  .openapi({ example: "buyer@acme.example" });

/** Subject and message are header or body text: control characters (bar newline and tab in the message) refused. */
const noControl = (text: string, allowed: RegExp) =>
  [...text].every((ch) => ch.charCodeAt(0) >= 0x20 || allowed.test(ch)) && !text.includes("\u007f");

export const QuotationSendBody = z
  .object({
    to: z
      .union([address, z.array(address).min(1).max(SEND_RECIPIENTS_MAX)])
      .openapi({ description: "The buyer's address, or a list of them" }),
    cc: z.array(address).max(SEND_RECIPIENTS_MAX).optional(),
    subject: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .refine((s) => noControl(s, /^$/), { error: "No control characters or line breaks" })
      .optional()
      .openapi({ description: 'Default "Quotation <quote_no> from <seller>"' }),
    message: z
      .string()
      .trim()
      .max(SEND_MESSAGE_MAX)
      .refine((s) => noControl(s, /^[\n\r\t]$/), { error: "No control characters" })
      .optional()
      .openapi({
        description:
          "The mail's text above the signature; also the note of the follow-up logged on the customer",
      }),
    format: z.enum(["pdf", "xlsx"]).default("pdf"),
  })
  .strict()
  .refine(
    (b) =>
      (typeof b.to === "string" ? 1 : b.to.length) + (b.cc?.length ?? 0) <= SEND_RECIPIENTS_MAX,
    { error: `At most ${SEND_RECIPIENTS_MAX} recipients in to and cc together`, path: ["cc"] },
  )
  .openapi("QuotationSendInput");
export type QuotationSendInput = z.infer<typeof QuotationSendBody>;

const FollowupSchema = FollowupResultSchema.shape.followup;

export const QuotationSendResult = z
  .object({
    quotation: QuotationSchema,
    followup: FollowupSchema.nullable().openapi({
      description: "The follow-up logged on the quotation's customer; null when it has none",
    }),
    mail: z.object({
      to: z.array(z.string()),
      cc: z.array(z.string()),
      reply_to: z
        .string()
        .nullable()
        .openapi({ description: "The sending member's address; null when the account has none" }),
      subject: z.string(),
      format: z.enum(["pdf", "xlsx"]),
      filename: z.string(),
      bytes: z.number().int(),
      provider: z.enum(["smtp", "http"]),
    }),
  })
  .openapi("QuotationSendResult");
