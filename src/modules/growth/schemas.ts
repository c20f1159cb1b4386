import { z } from "@hono/zod-openapi";
import { CERTIFICATION_STATUSES, INVOICE_STATUSES } from "../../db/schema";
import { pageQuery, pageSchema } from "../../lib/pagination";

export const ReferralsSchema = z
  .object({
    code: z.string(),
    link: z
      .string()
      .openapi({ description: "FRONTEND_URL (else PUBLIC_BASE_URL)/register?ref=CODE" }),
    reward_days: z.int().openapi({ description: "Days of Pro each party gets (system config)" }),
    referrals: z.array(
      z.object({
        user_id: z.string(),
        name: z.string().openapi({ description: "The referred user's masked email" }),
        rewarded_at: z.string(),
        days: z.int(),
      }),
    ),
    referral_count: z.int(),
    total_days_earned: z.int().openapi({
      description: "Days earned as referrer plus, if the caller was referred, their own reward",
    }),
  })
  .openapi("Referrals");

const text = (max: number) => z.string().trim().min(1).max(max);

export const CertificationBody = z
  .object({
    company_name: text(200),
    license_no: text(64),
    contact_name: text(100),
    contact_phone: z
      .string()
      .trim()
      .regex(/^\+?[0-9][0-9 ()-]{4,30}$/, { error: "Not a phone number" }),
  })
  .strict()
  .openapi("CertificationInput");

export const CertificationSchema = z
  .object({
    id: z.string(),
    company_name: z.string(),
    license_no: z.string(),
    contact_name: z.string(),
    contact_phone: z.string(),
    status: z.enum(CERTIFICATION_STATUSES),
    reject_reason: z.string().nullable(),
    reviewed_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Certification");

const AdminCertificationSchema = CertificationSchema.extend({
  user_id: z.string(),
  email: z.string().nullable(),
  reviewed_by: z.string().nullable(),
}).openapi("AdminCertification");

export const CertificationsQuery = pageQuery().extend({
  status: z.enum(CERTIFICATION_STATUSES).optional(),
});
export const CertificationsPage =
  pageSchema(AdminCertificationSchema).openapi("CertificationsPage");

export const RejectBody = z
  .object({ reason: z.string().trim().min(2).max(500) })
  .strict()
  .openapi("CertificationRejection");

export const InvoiceBody = z
  .object({
    order_no: z.string().trim().min(1).max(64),
    title: text(200),
    tax_number: z
      .string()
      .trim()
      .regex(/^[0-9A-Za-z-]{6,30}$/, { error: "6 to 30 letters, digits or -" }),
    email: z
      .email()
      .max(254)
      .transform((e) => e.toLowerCase()),
  })
  .strict()
  .openapi("InvoiceRequest");

export const InvoiceSchema = z
  .object({
    id: z.string(),
    order_no: z.string(),
    title: z.string(),
    tax_number: z.string(),
    email: z.string(),
    amount: z.int().openapi({ description: "Minor units: paid amount less refunds" }),
    currency: z.string(),
    status: z.enum(INVOICE_STATUSES),
    invoice_number: z.string().nullable(),
    issued_at: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi("Invoice");

const AdminInvoiceSchema = InvoiceSchema.extend({
  user_id: z.string(),
  user_email: z.string().nullable(),
}).openapi("AdminInvoice");

export const InvoicesQuery = pageQuery();
export const InvoicesPage = pageSchema(InvoiceSchema).openapi("InvoicesPage");
export const AdminInvoicesQuery = pageQuery().extend({
  status: z.enum(INVOICE_STATUSES).optional(),
  user_id: z.uuid().optional(),
});
export const AdminInvoicesPage = pageSchema(AdminInvoiceSchema).openapi("AdminInvoicesPage");

export const IssueBody = z
  .object({ invoice_number: z.string().trim().min(1).max(64) })
  .strict()
  .openapi("InvoiceIssue");
