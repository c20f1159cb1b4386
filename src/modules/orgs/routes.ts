import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { requireAuth } from "../../http/auth";
import { csrfSecurity, requireCsrf } from "../../http/csrf";
import type { AppEnv } from "../../http/env";
import {
  csrfErrorResponses,
  ErrorSchema,
  errorResponse,
  rateLimitedResponses,
} from "../../http/errors";
import { limitByUser } from "../../http/limits";
import {
  jsonBody as body,
  IdParam,
  jsonResponse as json,
  bearerSecurity as security,
} from "../../http/openapi";
import { RATE_LIMIT_RULES } from "../../http/rate-limit-rules";
import { createRouter } from "../../http/router";
import { actorOf } from "../admin/writes";
import { DocumentSettingsBody, DocumentSettingsSchema } from "./document-settings";
import {
  AcceptBody,
  DepartureSchema,
  InvitationBody,
  InvitationList,
  InvitationSchema,
  MemberPatchBody,
  MemberRemoveBody,
  OrgMemberList,
  OrgMemberSchema,
  OrgPatchBody,
  OrgSchema,
  TransferOwnershipBody,
  UserIdParam,
} from "./schemas";
import {
  acceptInvitation,
  createInvitation,
  getDocumentSettings,
  getOrg,
  type KeepAlive,
  leaveOrg,
  listInvitations,
  listMembers,
  patchMember,
  patchOrg,
  putDocumentSettings,
  removeMember,
  revokeInvitation,
  transferOwnership,
} from "./service";

const tags = ["Organisation"];
const read = [requireAuth];
const write = [requireAuth, requireCsrf];

const refused = (text: string) => ({ 403: errorResponse(ErrorSchema, text) });
const adminOnly = refused("The caller's role is below admin, or a missing or invalid CSRF token");
const noSuchMember = {
  404: errorResponse(ErrorSchema, "No such member of the caller's organisation"),
};
/**
 * The seats refusal is a 402 (API.md) but not the credits 402 the contract gives every other
 * one (required, balance): as a response component its own body is documented (ADR 0100).
 */
const SeatsTakenSchema = ErrorSchema.extend({
  limit: z.literal("seats"),
  max: z.number().int().openapi({ description: "Members the plan allows" }),
}).openapi("SeatsTaken");
const seatsTaken = { 402: { $ref: "#/components/responses/SeatsTaken" } };

const AcceptedSchema = z
  .object({
    org_id: z.string(),
    role: z.enum(["admin", "manager", "member"]),
    previous_org_id: z.string(),
    brought_data: z.boolean(),
    credits_moved: z.number().int(),
    products_without_sku: z.number().int().openapi({
      description: "Brought products whose SKU the catalogue already had: kept, SKU cleared",
    }),
  })
  .openapi("OrgInvitationAccepted");

const getOrgRoute = createRoute({
  method: "get",
  path: "/api/v1/org",
  tags,
  security,
  summary: "The caller's organisation: plan, seats, member count, the caller's role, settings",
  middleware: read,
  responses: { 200: json(OrgSchema, "Organisation"), ...csrfErrorResponses },
});

const patchOrgRoute = createRoute({
  method: "patch",
  path: "/api/v1/org",
  tags,
  security: csrfSecurity,
  summary: "Admin+: rename, or change settings (merged into the stored ones)",
  middleware: write,
  request: { body: body(OrgPatchBody) },
  responses: { 200: json(OrgSchema, "Updated"), ...csrfErrorResponses, ...adminOnly },
});

const getDocumentSettingsRoute = createRoute({
  method: "get",
  path: "/api/v1/org/document-settings",
  tags,
  security,
  summary: "The seller block every document of the organisation prints (any member)",
  middleware: read,
  responses: {
    200: json(DocumentSettingsSchema, "Document settings; every field null when never set"),
    ...csrfErrorResponses,
  },
});

const putDocumentSettingsRoute = createRoute({
  method: "put",
  path: "/api/v1/org/document-settings",
  tags,
  security: csrfSecurity,
  summary:
    "Admin+: set the document settings (a field left out keeps its value, null clears it); audited",
  middleware: write,
  request: { body: body(DocumentSettingsBody) },
  responses: {
    200: json(DocumentSettingsSchema, "Updated"),
    413: errorResponse(ErrorSchema, "`payload_too_large`: the logo is over 512 KB"),
    ...csrfErrorResponses,
    ...adminOnly,
  },
});

const listMembersRoute = createRoute({
  method: "get",
  path: "/api/v1/org/members",
  tags,
  security,
  summary: "Members with their customers held and credits used this month",
  middleware: read,
  responses: { 200: json(OrgMemberList, "Members, owner first"), ...csrfErrorResponses },
});

const patchMemberRoute = createRoute({
  method: "patch",
  path: "/api/v1/org/members/{user_id}",
  tags,
  security: csrfSecurity,
  summary: "Admin+: a member's role or monthly credit limit (an admin only by the owner)",
  middleware: write,
  request: { params: UserIdParam, body: body(MemberPatchBody) },
  responses: {
    200: json(OrgMemberSchema, "Updated"),
    ...csrfErrorResponses,
    ...refused("Below admin; the owner's row; an admin changed by an admin; or CSRF"),
    ...noSuchMember,
  },
});

const removeMemberRoute = createRoute({
  method: "delete",
  path: "/api/v1/org/members/{user_id}",
  tags,
  security: csrfSecurity,
  summary:
    "Admin+: remove a member; their customers to transfer_to or the pool, their sessions end, a new personal organisation",
  middleware: write,
  request: {
    params: UserIdParam,
    body: { required: false, content: { "application/json": { schema: MemberRemoveBody } } },
  },
  responses: {
    200: json(DepartureSchema, "Removed"),
    ...csrfErrorResponses,
    ...refused("Below admin; the owner; an admin removed by an admin; or CSRF"),
    ...noSuchMember,
    409: errorResponse(ErrorSchema, "The caller themselves (use /org/leave)"),
  },
});

const leaveRoute = createRoute({
  method: "post",
  path: "/api/v1/org/leave",
  tags,
  security: csrfSecurity,
  summary: "Leave the organisation (not the owner); customers to the pool, sessions end",
  middleware: write,
  responses: {
    200: json(DepartureSchema, "Left"),
    ...csrfErrorResponses,
    409: errorResponse(ErrorSchema, "The owner: transfer ownership first"),
  },
});

const transferRoute = createRoute({
  method: "post",
  path: "/api/v1/org/transfer-ownership",
  tags,
  security: csrfSecurity,
  summary: "Owner: a member becomes the owner, the old owner an admin",
  middleware: write,
  request: { body: body(TransferOwnershipBody) },
  responses: {
    200: json(OrgSchema, "The organisation as the caller (now an admin) sees it"),
    ...csrfErrorResponses,
    ...refused("The caller is not the owner, or CSRF"),
    ...noSuchMember,
    409: errorResponse(ErrorSchema, "The caller named themselves"),
  },
});

const createInvitationRoute = createRoute({
  method: "post",
  path: "/api/v1/org/invitations",
  tags,
  security: csrfSecurity,
  summary:
    "Admin+: invite an address; mails FRONTEND_URL/invite?token=... (30 an hour per inviter)",
  middleware: [...write, limitByUser(RATE_LIMIT_RULES.orgInvitation)] as const,
  request: { body: body(InvitationBody) },
  responses: {
    201: json(InvitationSchema, "Invited"),
    ...csrfErrorResponses,
    ...adminOnly,
    ...seatsTaken,
    409: errorResponse(ErrorSchema, "Already a member, or already invited (revoke to re-send)"),
    ...rateLimitedResponses,
  },
});

const listInvitationsRoute = createRoute({
  method: "get",
  path: "/api/v1/org/invitations",
  tags,
  security,
  summary: "Admin+: pending invitations (not accepted, revoked or expired), newest first",
  middleware: read,
  responses: {
    200: json(InvitationList, "Pending invitations"),
    ...csrfErrorResponses,
    ...adminOnly,
  },
});

const revokeInvitationRoute = createRoute({
  method: "delete",
  path: "/api/v1/org/invitations/{id}",
  tags,
  security: csrfSecurity,
  summary: "Admin+: revoke an invitation (again: no change)",
  middleware: write,
  request: { params: IdParam },
  responses: {
    204: { description: "Revoked" },
    ...csrfErrorResponses,
    ...adminOnly,
    404: errorResponse(ErrorSchema, "No such invitation of the caller's organisation"),
    409: errorResponse(ErrorSchema, "Already accepted"),
  },
});

const acceptInvitationRoute = createRoute({
  method: "post",
  path: "/api/v1/org/invitations/accept",
  tags,
  security: csrfSecurity,
  summary:
    "Join the inviting organisation (verified invited address; the only member of the current one)",
  middleware: write,
  request: { body: body(AcceptBody) },
  responses: {
    200: json(AcceptedSchema, "Joined"),
    ...csrfErrorResponses,
    ...seatsTaken,
    ...refused("Another address than the invited one, an unverified address, or CSRF"),
    404: errorResponse(ErrorSchema, "No invitation has this token"),
    409: errorResponse(
      ErrorSchema,
      "Used, revoked or expired; already a member; or the current organisation has other members",
    ),
  },
});

/** Keeps the invitation mail's send alive past the response on Workers. */
function keepAliveOf(c: Context<AppEnv>): KeepAlive {
  return (task) => {
    try {
      c.executionCtx.waitUntil(task);
    } catch {
      // No execution context (Node, app.request in tests): the promise runs on by itself.
    }
  };
}

/** The caller's organisation: its members, invitations, ownership and settings (docs/teams.md). */
export function createOrgRoutes() {
  const router = createRouter();
  router.openAPIRegistry.register("SeatsTaken", SeatsTakenSchema);
  router.openAPIRegistry.registerComponent("responses", "SeatsTaken", {
    description:
      "`plan_limit_reached`: the plan's seats are taken by members and pending invitations (`limit: seats`, `max`)",
    content: { "application/json": { schema: { $ref: "#/components/schemas/SeatsTaken" } } },
  });
  const user = (c: { get(key: "auth"): { userId: string } }) => c.get("auth").userId;
  router.openapi(getOrgRoute, async (c) => c.json(await getOrg(c.get("deps"), user(c)), 200));
  router.openapi(patchOrgRoute, async (c) =>
    c.json(await patchOrg(c.get("deps"), user(c), c.req.valid("json")), 200),
  );
  router.openapi(getDocumentSettingsRoute, async (c) =>
    c.json(await getDocumentSettings(c.get("deps"), user(c)), 200),
  );
  router.openapi(putDocumentSettingsRoute, async (c) =>
    c.json(await putDocumentSettings(c.get("deps"), actorOf(c), c.req.valid("json")), 200),
  );
  router.openapi(listMembersRoute, async (c) =>
    c.json(await listMembers(c.get("deps"), user(c)), 200),
  );
  router.openapi(patchMemberRoute, async (c) =>
    c.json(
      await patchMember(c.get("deps"), user(c), c.req.valid("param").user_id, c.req.valid("json")),
      200,
    ),
  );
  router.openapi(removeMemberRoute, async (c) => {
    const transferTo = c.req.valid("json")?.transfer_to;
    return c.json(
      await removeMember(c.get("deps"), user(c), c.req.valid("param").user_id, transferTo),
      200,
    );
  });
  router.openapi(leaveRoute, async (c) => c.json(await leaveOrg(c.get("deps"), user(c)), 200));
  router.openapi(transferRoute, async (c) =>
    c.json(await transferOwnership(c.get("deps"), user(c), c.req.valid("json").user_id), 200),
  );
  // Literal /invitations/accept before /invitations/{id}: both are POST/DELETE apart anyway.
  router.openapi(acceptInvitationRoute, async (c) =>
    c.json(await acceptInvitation(c.get("deps"), user(c), c.req.valid("json")), 200),
  );
  router.openapi(createInvitationRoute, async (c) =>
    c.json(
      await createInvitation(c.get("deps"), user(c), c.req.valid("json"), keepAliveOf(c)),
      201,
    ),
  );
  router.openapi(listInvitationsRoute, async (c) =>
    c.json(await listInvitations(c.get("deps"), user(c)), 200),
  );
  router.openapi(revokeInvitationRoute, async (c) => {
    await revokeInvitation(c.get("deps"), user(c), c.req.valid("param").id);
    return c.body(null, 204);
  });
  return router;
}
