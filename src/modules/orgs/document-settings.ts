import { z } from "@hono/zod-openapi";
import { ApiError, validationError } from "../../http/errors";
import { clearableText } from "../../http/schemas";
import { httpUrlWithoutCredentials } from "../../http/url-schema";
import { base64, base64Decode } from "../../lib/crypto";
import { readLogoImage } from "./logo-image";

// The seller block of an organisation's documents (GET/PUT /api/v1/org/document-settings,
// docs/quotations.md, ADR 0106): one definition for the PUT body, the GET answer and the
// documents' reader (parseDocumentSettings), as settings.ts does for the pool rules.

/** The largest logo, decoded: a letterhead's logo is tens of KB; 512 KB leaves room for a photo. */
const LOGO_MAX_BYTES = 512 * 1024;

/** Longest validity: ten years, as the pool rules' day counts. */
const MAX_VALIDITY_DAYS = 3650;

/** A text field: trimmed, "" or null clears it. */
const text = clearableText;

const fields = {
  legal_name: text(200, "The company's registered name, printed at the head of every document"),
  address: text(1000, 'Postal address, lines separated by "\\n"'),
  phone: text(50, "Telephone"),
  email: z
    .union([z.literal(""), z.email({ error: "Not an e-mail address" }).max(254)])
    .nullable()
    .transform((value) => (value === "" ? null : value))
    .openapi({ description: "Contact e-mail" }),
  website: z
    .union([
      z.literal(""),
      httpUrlWithoutCredentials(300, "An http(s) address without user or password"),
    ])
    .nullable()
    .transform((value) => (value === "" ? null : value))
    .openapi({ description: "Website, http(s)" }),
  logo: z
    .string()
    .max(4_000_000) // the body limit (1 MB) comes first; past 512 KB decoded is a 413
    .nullable()
    .openapi({
      description:
        "PNG or JPEG, base64 (a `data:image/png;base64,` prefix is accepted), at most 512 KB decoded: 413 `payload_too_large` when larger, 422 when not a PNG or JPEG; null removes it",
    }),
  bank_details: text(2000, "Bank, account, SWIFT/BIC, IBAN: what the buyer pays the deposit to"),
  payment_terms: text(
    500,
    'e.g. "30% deposit, 70% balance before shipment": the first percentage before "deposit" (or "advance") splits a proforma invoice',
  ),
  validity_days: z
    .number()
    .int()
    .min(1)
    .max(MAX_VALIDITY_DAYS)
    .nullable()
    .openapi({ description: "Days an offer holds from its date" }),
  footer: text(500, "A line or two at the foot of every page"),
};

/** PUT body: each field optional; a field left out keeps its stored value, null clears it. */
export const DocumentSettingsBody = z
  .object(fields)
  .partial()
  .strict()
  .openapi("DocumentSettingsInput");
export type DocumentSettingsInput = z.infer<typeof DocumentSettingsBody>;

export const DocumentSettingsSchema = z
  .object({
    legal_name: z.string().nullable(),
    address: z.string().nullable(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    website: z.string().nullable(),
    logo: z.string().nullable().openapi({ description: "base64, as stored" }),
    logo_type: z.enum(["image/png", "image/jpeg"]).nullable(),
    bank_details: z.string().nullable(),
    payment_terms: z.string().nullable(),
    validity_days: z.number().int().nullable(),
    footer: z.string().nullable(),
    updated_at: z
      .string()
      .nullable()
      .openapi({ description: "Last change; null: never set (every field null)" }),
  })
  .openapi("DocumentSettings");
export type DocumentSettings = z.infer<typeof DocumentSettingsSchema>;

export type LogoType = "image/png" | "image/jpeg";

const badLogo = (msg: string) =>
  validationError([{ loc: ["body", "logo"], msg, type: "invalid_image" }], msg);

/** Strict base64 (padding optional, whitespace ignored) to bytes; null when it is not base64. */
function decodeBase64(value: string): Uint8Array | null {
  const compact = value.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) return null;
  try {
    return base64Decode(compact);
  } catch {
    return null;
  }
}

/**
 * A logo as sent: base64 of a PNG or JPEG of at most LOGO_MAX_BYTES. Checks the size (413) and
 * the file's structure as the PDF writer will read it (422, logo-image.ts: without pdf-lib,
 * which stays in the documents Worker). Answers the canonical base64 (no prefix, no whitespace) and the type.
 */
export function checkLogo(value: string): { base64: string; type: LogoType } {
  const prefixed = /^data:(image\/(?:png|jpeg|jpg));base64,/i.exec(value);
  const body = prefixed ? value.slice(prefixed[0].length) : value;
  const bytes = decodeBase64(body);
  if (!bytes || bytes.length === 0) throw badLogo("The logo is not base64");
  if (bytes.length > LOGO_MAX_BYTES) {
    throw new ApiError(
      413,
      `The logo is ${Math.ceil(bytes.length / 1024)} KB; at most ${LOGO_MAX_BYTES / 1024} KB`,
      { code: "payload_too_large" },
    );
  }
  const image = readLogoImage(bytes);
  if (!image.ok) {
    throw badLogo(
      image.reason === "it is not a PNG or JPEG image"
        ? "The logo must be a PNG or JPEG image"
        : `The logo is not a readable image: ${image.reason}`,
    );
  }
  return { base64: base64(bytes), type: image.type };
}
