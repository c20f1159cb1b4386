import { z } from "@hono/zod-openapi";
import { PlanLimitsSchema } from "../entitlements/schemas";

const email = z
  .email({ error: "Enter a valid email address" })
  .max(254)
  .transform((value) => value.trim().toLowerCase())
  .openapi({ example: "seller@example.com" });

export const RegisterBody = z
  .object({
    email,
    password: z
      .string()
      .min(6, { error: "Password must be at least 6 characters" })
      .max(128, { error: "Password must be at most 128 characters" }),
    name: z.string().trim().min(1).max(100).optional(),
    referral_code: z.string().trim().min(4).max(32).optional(),
  })
  .openapi("RegisterRequest");

export const LoginBody = z
  .object({ email, password: z.string().min(1).max(128) })
  .openapi("LoginRequest");

export const WechatLoginBody = z
  .object({ code: z.string().trim().min(1).max(256) })
  .openapi("WechatLoginRequest");

export const RefreshBody = z
  .object({
    refresh_token: z
      .string()
      .min(20)
      .max(200)
      .optional()
      .openapi({ description: "For clients without cookies; browsers send the cookie" }),
  })
  .openapi("RefreshRequest");

export const PasswordChangeBody = z
  .object({
    old_password: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .openapi({
        description:
          "Required on an account with a password. An account without one (WeChat sign-in) sets " +
          "its first password with its address: POST /api/v1/auth/email",
      }),
    new_password: z.string().min(6, { error: "Password must be at least 6 characters" }).max(128),
  })
  .openapi("PasswordChangeRequest");

/**
 * On GET /auth/me: what the plan in effect of the caller's organisation (`plan`) allows, so a
 * frontend can grey out the rest, and the organisation itself.
 */
const entitlementFields = {
  features: z
    .array(z.string())
    .optional()
    .openapi({ description: "Feature codes of the plan in effect (GET /auth/me)" }),
  limits: PlanLimitsSchema.optional().openapi({
    description:
      "Each limit of the organisation's plan with its max (null = unlimited) and the " +
      "organisation's usage (GET /auth/me)",
  }),
  org: z
    .object({
      id: z.uuid(),
      name: z.string(),
      role: z.enum(["owner", "admin", "manager", "member"]),
    })
    .optional()
    .openapi({ description: "The caller's organisation and role there (GET /auth/me)" }),
};

export const UserSchema = z
  .object({
    id: z.uuid(),
    email: z.string().nullable(),
    name: z.string().nullable(),
    company: z.string().nullable(),
    phone: z.string().nullable(),
    country: z.string().nullable(),
    language: z.string().nullable(),
    role: z.enum(["user", "admin"]),
    status: z.enum(["active", "disabled"]),
    is_guest: z.boolean(),
    plan: z.string(),
    plan_expires_at: z.string().nullable(),
    trial_ends_at: z.string().nullable(),
    is_trial_active: z.boolean(),
    referral_code: z.string(),
    credits: z.number().int(),
    has_wechat: z.boolean(),
    created_at: z.string(),
    email_verified: z.boolean(),
    ...entitlementFields,
  })
  .openapi("User");

export const GuestUserSchema = z
  .object({
    id: z.uuid(),
    is_guest: z.literal(true),
    name: z.string().nullable(),
    role: z.literal("user"),
    plan: z.string(),
    credits: z.number().int(),
    created_at: z.string(),
    ...entitlementFields,
  })
  .openapi("GuestUser");

export const SessionSchema = z
  .object({
    access_token: z.string(),
    token_type: z.literal("bearer"),
    expires_in: z.number().int(),
    refresh_token: z.string().openapi({ description: "Also set as an httpOnly cookie" }),
    csrf_token: z.string().openapi({ description: "Also set as the csrf_token cookie" }),
    user: z.union([UserSchema, GuestUserSchema]),
  })
  .openapi("Session");

export const CsrfSchema = z.object({ csrf_token: z.string() }).openapi("CsrfToken");
export const DetailSchema = z.object({ detail: z.string() }).openapi("Detail");

export const ProfilePatchBody = z
  .object({
    name: z.string().trim().min(1).max(100).nullable(),
    company: z.string().trim().max(200).nullable(),
    phone: z.string().trim().max(40).nullable(),
    country: z.string().trim().max(80).nullable(),
    language: z.string().trim().max(20).nullable(),
  })
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, { error: "Send at least one field to change" })
  .openapi("ProfilePatch");

export type UserResponse = z.infer<typeof UserSchema>;
export type GuestUserResponse = z.infer<typeof GuestUserSchema>;
