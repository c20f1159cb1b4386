import { z } from "@hono/zod-openapi";

const email = z
  .email({ error: "Enter a valid email address" })
  .max(254)
  .transform((value) => value.trim().toLowerCase())
  .openapi({ example: "seller@example.com" });

/** The mailed token: randomToken(32) is 43 base64url characters; anything else is refused. */
const token = z
  .string()
  .trim()
  .min(20, { error: "This link is invalid" })
  .max(200, { error: "This link is invalid" })
  .regex(/^[A-Za-z0-9_-]+$/, { error: "This link is invalid" })
  .openapi({ description: "The `token` query parameter of the mailed link" });

const newPassword = z
  .string()
  .min(6, { error: "Password must be at least 6 characters" })
  .max(128, { error: "Password must be at most 128 characters" });

export const VerifyEmailBody = z.object({ token }).openapi("VerifyEmailRequest");

export const ForgotPasswordBody = z.object({ email }).openapi("ForgotPasswordRequest");

export const ResetPasswordBody = z
  .object({ token, new_password: newPassword })
  .openapi("ResetPasswordRequest");

export const EmailChangeBody = z
  .object({
    new_email: email,
    password: z
      .string()
      .min(1)
      .max(128)
      .openapi({
        description:
          "The current password; on an account without one (WeChat sign-in), the first password " +
          "to set (6 to 128 characters), which takes effect with the address (docs/adr/0089)",
      }),
    wechat_code: z
      .string()
      .trim()
      .min(1)
      .max(256)
      .optional()
      .openapi({
        description:
          "Required on an account without a password: a fresh WeChat OAuth code of the " +
          "account's own WeChat user, proving the request is the owner's and not a stolen session's",
      }),
  })
  .openapi("EmailChangeRequest");

export const VerifiedSchema = z
  .object({
    detail: z.string(),
    email: z
      .string()
      .openapi({ description: "The address now verified (the new one after a change)" }),
    email_verified: z.literal(true),
    sessions_ended: z
      .number()
      .int()
      .openapi({
        description:
          "Sessions of the account this use ended: every one but the caller's own, when the " +
          "request carried it (docs/adr/0084)",
      }),
  })
  .openapi("EmailVerified");
