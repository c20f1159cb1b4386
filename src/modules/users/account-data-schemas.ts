import { z } from "@hono/zod-openapi";

export const AccountDeleteBody = z
  .object({
    password: z.string().min(1).max(1024).optional().openapi({
      description: "The account's password (required when it has one)",
    }),
    code: z
      .string()
      .regex(/^\d{6}$/, { error: "Six digits" })
      .optional()
      .openapi({
        description:
          "For an account without a password: the code mailed by POST /api/v1/users/me/deletion-code",
      }),
  })
  .strict()
  .openapi("AccountDeleteInput");

export const DeletionCodeSent = z
  .object({
    sent_to: z.string(),
    expires_in_seconds: z.number().int(),
  })
  .openapi("AccountDeletionCode");
