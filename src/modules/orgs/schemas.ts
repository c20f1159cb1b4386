import { z } from "@hono/zod-openapi";
import { ORG_ROLES } from "../../db/schema";
import { OrgSettingsPatchSchema, OrgSettingsSchema } from "./settings";

/** The roles an invitation or a member PATCH may give: `owner` only through a transfer. */
const ASSIGNABLE_ROLES = ["admin", "manager", "member"] as const;
const OrgRoleSchema = z.enum(ORG_ROLES).openapi("OrgRole");
const AssignableRoleSchema = z.enum(ASSIGNABLE_ROLES).openapi({
  description: "`owner` changes hands only through POST /api/v1/org/transfer-ownership",
});

export const OrgSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    plan: z.string().openapi({ description: "The plan in effect" }),
    seats: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Members the plan allows; null: unlimited" }),
    member_count: z.number().int(),
    role: OrgRoleSchema.openapi({ description: "The caller's role" }),
    settings: OrgSettingsSchema,
  })
  .openapi("Org");

export const OrgPatchBody = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    settings: OrgSettingsPatchSchema.optional(),
  })
  .strict()
  .openapi("OrgPatch");
export type OrgPatchInput = z.infer<typeof OrgPatchBody>;

export const OrgMemberSchema = z
  .object({
    user_id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    role: OrgRoleSchema,
    joined_at: z.string(),
    customer_count: z.number().int().openapi({ description: "Customers the member holds" }),
    credits_used_month: z
      .number()
      .int()
      .openapi({ description: "Credits charged to the member since the start of the UTC month" }),
    monthly_credit_limit: z.number().int().nullable().openapi({ description: "null: no limit" }),
  })
  .openapi("OrgMember");

export const OrgMemberList = z.object({ items: z.array(OrgMemberSchema) }).openapi("OrgMemberList");

export const UserIdParam = z.object({
  user_id: z.uuid({ error: "Not a valid id" }).openapi({ param: { name: "user_id", in: "path" } }),
});

export const MemberPatchBody = z
  .object({
    role: AssignableRoleSchema.optional(),
    monthly_credit_limit: z
      .number()
      .int()
      .min(0)
      .max(2_147_483_647)
      .nullable()
      .optional()
      .openapi({ description: "Credits per UTC month; null: no limit" }),
  })
  .strict()
  .openapi("OrgMemberPatch");
export type MemberPatchInput = z.infer<typeof MemberPatchBody>;

export const MemberRemoveBody = z
  .object({
    transfer_to: z.uuid({ error: "Not a valid id" }).optional().openapi({
      description: "A member who takes over the removed member's customers; else the pool",
    }),
  })
  .strict()
  .openapi("OrgMemberRemove");

export const DepartureSchema = z
  .object({
    user_id: z.string(),
    customers_moved: z.number().int(),
    to_user_id: z
      .string()
      .nullable()
      .openapi({ description: "Who holds them now; null: the pool" }),
    new_org_id: z
      .string()
      .openapi({ description: "The departed member's new personal organisation" }),
  })
  .openapi("OrgDeparture");

export const TransferOwnershipBody = z
  .object({ user_id: z.uuid({ error: "Not a valid id" }) })
  .strict()
  .openapi("OrgTransferOwnership");

export const InvitationBody = z
  .object({
    email: z.email({ error: "Not a valid e-mail address" }).max(254),
    role: AssignableRoleSchema,
    expires_in_days: z.number().int().min(1).max(30).default(7),
  })
  .strict()
  .openapi("OrgInvitationCreate");
export type InvitationInput = z.infer<typeof InvitationBody>;

export const InvitationSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    role: AssignableRoleSchema,
    invited_by: z.string().nullable(),
    expires_at: z.string(),
    created_at: z.string(),
  })
  .openapi("OrgInvitation");

export const InvitationList = z
  .object({ items: z.array(InvitationSchema) })
  .openapi("OrgInvitationList");

export const AcceptBody = z
  .object({
    token: z.string().min(1).max(200),
    bring_data: z.boolean().default(false).openapi({
      description: "Move the caller's records and remaining credits into the organisation",
    }),
  })
  .strict()
  .openapi("OrgInvitationAccept");
export type AcceptInput = z.infer<typeof AcceptBody>;
