import { pgErrorCode, withTransaction } from "../../db/client";
import type { OrgRole } from "../../db/schema";
import {
  ApiError,
  conflict,
  forbidden,
  notFound,
  unauthorized,
  validationError,
} from "../../http/errors";
import { iso, nowIso } from "../../lib/clock";
import { randomToken, sha256Hex } from "../../lib/crypto";
import type { Deps } from "../../ports";
import { MailError } from "../../providers/mail/types";
import { frontendUrl } from "../account/links";
import type { Actor } from "../admin/writes";
import { noteSessionEnded } from "../auth/revocations";
import { moveOrgCredits } from "../credits/queries/org-move";
import { checkLogo, type DocumentSettings, type DocumentSettingsInput } from "./document-settings";
import { invitationMail } from "./mails";
import type { InvitationRow, MemberRow, OrgRow } from "./queries";
import * as queries from "./queries";
import type { DocumentSettingsField, DocumentSettingsRow } from "./queries/document-settings";
import * as docQueries from "./queries/document-settings";
import type { AcceptInput, InvitationInput, MemberPatchInput, OrgPatchInput } from "./schemas";
import { parseOrgSettings } from "./settings";

const ADMIN_NEEDED = (action: string) =>
  forbidden(`${action} needs the admin or owner role in the organisation`);
const noSuchMember = () => notFound("No such member of your organisation");

/** Keeps a mail send alive past the response (Workers: waitUntil); undefined on Node. */
export type KeepAlive = ((task: Promise<unknown>) => void) | undefined;

const isAdmin = (role: OrgRole | null | undefined) => role === "owner" || role === "admin";

function orgOut(row: OrgRow) {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    seats: row.seats === null ? null : Number(row.seats),
    member_count: Number(row.member_count),
    role: row.role,
    settings: parseOrgSettings(row.settings),
  };
}

export async function getOrg(deps: Deps, userId: string) {
  const row = await queries.getOrg(deps.db, { userId, now: nowIso(deps) });
  if (!row) throw unauthorized("Account is not active");
  return orgOut(row);
}

export async function patchOrg(deps: Deps, userId: string, input: OrgPatchInput) {
  const row = await queries.patchOrg(deps.db, {
    userId,
    name: input.name,
    settings: input.settings,
    now: nowIso(deps),
  });
  if (!row) throw unauthorized("Account is not active");
  if (!row.updated) throw ADMIN_NEEDED("Changing the organisation");
  return orgOut(row);
}

function memberOut(row: MemberRow) {
  return {
    user_id: row.user_id,
    email: row.email,
    name: row.name,
    role: row.role,
    joined_at: iso(row.joined_at),
    customer_count: Number(row.customer_count),
    credits_used_month: Number(row.credits_used_month),
    monthly_credit_limit: row.monthly_credit_limit,
  };
}

export async function listMembers(deps: Deps, userId: string) {
  const rows = await queries.listMembers(deps.db, { userId, now: nowIso(deps) });
  return { items: rows.map(memberOut) };
}

/**
 * Role and monthly limit. An admin changes managers and members (and may make them admins);
 * only the owner changes an admin; nobody changes the owner here (transfer-ownership).
 */
export async function patchMember(
  deps: Deps,
  userId: string,
  targetId: string,
  input: MemberPatchInput,
) {
  const outcome = await queries.patchMember(deps.db, {
    userId,
    targetId,
    role: input.role,
    setLimit: input.monthly_credit_limit !== undefined,
    limit: input.monthly_credit_limit ?? null,
    now: nowIso(deps),
  });
  if (!outcome) throw unauthorized("Account is not active");
  if (!outcome.member) {
    if (!isAdmin(outcome.caller_role)) throw ADMIN_NEEDED("Changing a member");
    if (outcome.target_role === null) throw noSuchMember();
    if (outcome.target_role === "owner") {
      throw forbidden(
        "The owner's membership changes only through POST /api/v1/org/transfer-ownership",
      );
    }
    throw forbidden("Only the owner changes an admin");
  }
  return memberOut(outcome.member);
}

interface Departure {
  actorId: string;
  memberId: string;
  transferTo: string | null;
  leaving: boolean;
}

/** Who removes whom, and where the customers go: the checks every departure shares. */
function departingOrgId(locked: Awaited<ReturnType<typeof queries.lockMembers>>, p: Departure) {
  const actor = locked.get(p.actorId);
  if (!actor) throw unauthorized("Account is not active");
  if (p.leaving && actor.role === "owner") {
    throw conflict(
      "The owner cannot leave: transfer ownership first (POST /api/v1/org/transfer-ownership)",
    );
  }
  if (!p.leaving && !isAdmin(actor.role)) throw ADMIN_NEEDED("Removing a member");
  if (!p.leaving && p.memberId === p.actorId) {
    throw conflict("You cannot remove yourself: use POST /api/v1/org/leave");
  }
  const member = locked.get(p.memberId);
  if (!member || member.org_id !== actor.org_id) throw noSuchMember();
  if (member.role === "owner") {
    throw forbidden("The owner cannot be removed; the owner may transfer ownership first");
  }
  if (member.role === "admin" && actor.role !== "owner" && !p.leaving) {
    throw forbidden("Only the owner removes an admin");
  }
  if (p.transferTo) {
    const heir = locked.get(p.transferTo);
    if (!heir || heir.org_id !== actor.org_id || p.transferTo === p.memberId) {
      throw validationError(
        [
          {
            loc: ["body", "transfer_to"],
            msg: "Not another member of your organisation",
            type: "custom",
          },
        ],
        "transfer_to must be another member of your organisation",
      );
    }
  }
  return actor.org_id;
}

async function depart(deps: Deps, p: Departure) {
  const now = nowIso(deps);
  const ids = [...new Set([p.actorId, p.memberId, ...(p.transferTo ? [p.transferTo] : [])])];
  const result = await withTransaction(deps.db, async (tx) => {
    const orgId = departingOrgId(await queries.lockMembers(tx, ids), p);
    return queries.detachMember(tx, {
      orgId,
      userId: p.memberId,
      toUserId: p.transferTo,
      actorId: p.actorId,
      reason: p.leaving ? "left" : "removed",
      newOrgId: deps.ids.uuid(),
      now,
    });
  });
  // This instance refuses the ended sessions at once; the others at their next poll.
  for (const session of result.sessions) noteSessionEnded(deps, session);
  return {
    user_id: p.memberId,
    customers_moved: result.customersMoved,
    to_user_id: p.transferTo,
    new_org_id: result.newOrgId,
  };
}

export function removeMember(
  deps: Deps,
  userId: string,
  targetId: string,
  transferTo: string | undefined,
) {
  return depart(deps, {
    actorId: userId,
    memberId: targetId,
    transferTo: transferTo ?? null,
    leaving: false,
  });
}

export function leaveOrg(deps: Deps, userId: string) {
  return depart(deps, { actorId: userId, memberId: userId, transferTo: null, leaving: true });
}

/**
 * The owner hands ownership to a member, who becomes the owner; the old owner becomes an
 * admin. Both rows are locked first (in key order), then the owner is demoted and the member
 * promoted, so the organisation has exactly one owner after any interleaving of transfers.
 */
export async function transferOwnership(deps: Deps, userId: string, targetId: string) {
  await withTransaction(deps.db, async (tx) => {
    const locked = await queries.lockMembers(tx, [...new Set([userId, targetId])]);
    const caller = locked.get(userId);
    if (!caller) throw unauthorized("Account is not active");
    if (caller.role !== "owner") throw forbidden("Only the owner transfers ownership");
    const target = locked.get(targetId);
    if (!target || target.org_id !== caller.org_id) throw noSuchMember();
    if (targetId === userId) throw conflict("You are already the owner");
    await queries.swapOwner(tx, { orgId: caller.org_id, from: userId, to: targetId });
  });
  return getOrg(deps, userId);
}

function invitationOut(row: InvitationRow) {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    invited_by: row.invited_by,
    expires_at: iso(row.expires_at),
    created_at: iso(row.created_at),
  };
}

/** A seat refusal: 402, as a plan limit a purchase lifts (docs/adr/0100). */
const seatsTaken = (seats: number) =>
  new ApiError(
    402,
    `plan limit "seats" reached: your plan allows ${seats} member${seats === 1 ? "" : "s"} (members and pending invitations); upgrade the plan or revoke an invitation`,
    { code: "plan_limit_reached", extra: { limit: "seats", max: seats } },
  );

/**
 * Invites an address (stored lower-cased; only the token's SHA-256 is kept) and mails the
 * link after the response. An address already a member or with a pending invitation is a
 * 409: revoke the pending one to send a new link.
 */
export async function createInvitation(
  deps: Deps,
  userId: string,
  input: InvitationInput,
  keepAlive: KeepAlive,
) {
  const token = randomToken(32);
  const now = deps.clock.now();
  const email = input.email.trim().toLowerCase();
  const outcome = await queries.insertInvitation(deps.db, {
    userId,
    email,
    role: input.role,
    tokenHash: await sha256Hex(token),
    expiresAt: new Date(now.getTime() + input.expires_in_days * 86_400_000).toISOString(),
    now: now.toISOString(),
  });
  if (!outcome) throw unauthorized("Account is not active");
  if (!outcome.invitation) {
    if (!isAdmin(outcome.caller_role)) throw ADMIN_NEEDED("Inviting");
    if (outcome.already_member) throw conflict(`${email} is already a member of your organisation`);
    if (outcome.already_invited) {
      throw conflict(`${email} already has a pending invitation; revoke it to send a new one`);
    }
    throw seatsTaken(Number(outcome.seats));
  }
  const link = frontendUrl(deps, `/invite?token=${encodeURIComponent(token)}`);
  sendInBackground(
    deps,
    {
      to: email,
      ...invitationMail({
        orgName: outcome.org_name,
        role: input.role,
        link,
        days: input.expires_in_days,
      }),
    },
    userId,
    keepAlive,
  );
  return invitationOut(outcome.invitation);
}

/** After the response: a slow or failing provider never changes the answer (logged, no link). */
function sendInBackground(
  deps: Deps,
  message: Parameters<Deps["mailer"]["send"]>[0],
  userId: string,
  keepAlive: KeepAlive,
) {
  const task = deps.mailer.send(message).catch((error: unknown) => {
    deps.logger.warn("mail not sent", {
      mail: "org_invitation",
      user_id: userId,
      provider: deps.mailer.kind,
      reason: error instanceof MailError ? error.reason : "error",
    });
  });
  keepAlive?.(task);
}

export async function listInvitations(deps: Deps, userId: string) {
  const row = await queries.listInvitations(deps.db, { userId, now: nowIso(deps) });
  if (!row) throw unauthorized("Account is not active");
  if (!isAdmin(row.caller_role)) throw ADMIN_NEEDED("Listing invitations");
  return { items: row.items.map(invitationOut) };
}

export async function revokeInvitation(deps: Deps, userId: string, id: string) {
  const row = await queries.revokeInvitation(deps.db, { userId, id, now: nowIso(deps) });
  if (!row) throw unauthorized("Account is not active");
  if (!isAdmin(row.caller_role)) throw ADMIN_NEEDED("Revoking an invitation");
  if (!row.found) throw notFound("No such invitation of your organisation");
  if (row.accepted) throw conflict("This invitation was already accepted");
}

const othersInYourOrg = () =>
  conflict(
    "Your current organisation has other members: leave it (or transfer its ownership and leave) first",
  );

/** The refusals of an accept, checked on the locked invitation and the caller's facts. */
function refuseAcceptance(
  invitation: queries.LockedInvitation,
  facts: Awaited<ReturnType<typeof queries.acceptanceFacts>>,
  bringData: boolean,
): asserts facts is NonNullable<typeof facts> {
  if (!facts) throw unauthorized("Account is not active");
  if (facts.email !== invitation.email) {
    throw forbidden("This invitation was sent to another e-mail address than your account's");
  }
  if (!facts.verified) {
    throw forbidden("Verify your e-mail address first (POST /api/v1/auth/verify-email/request)");
  }
  if (facts.current_org_id === invitation.org_id) {
    throw conflict("You are already a member of this organisation");
  }
  if (Number(facts.current_members) > 1) throw othersInYourOrg();
  // Its refund would land in the wallet left behind, which nobody can reach any more.
  if (bringData && facts.charges_in_flight) {
    throw conflict(
      "An agent run or discovery job of yours is still running: wait for it to end (or cancel it) before bringing your data",
    );
  }
  // Its last member left it (ADR 0100): no owner, and no one may reach its records again.
  if (Number(facts.members) === 0) {
    throw conflict("This invitation's organisation no longer has any member");
  }
  if (facts.seats !== null && Number(facts.members) >= Number(facts.seats)) {
    throw seatsTaken(Number(facts.seats));
  }
}

/**
 * Joins the organisation of an invitation. The invitation's and the organisation's rows are
 * locked first, so of two accepts of one token one wins, and two accepts into one organisation
 * see each other's seat. With bring_data, the caller's old organisation's records and remaining
 * credits move with them; without, they stay behind in the old organisation.
 */
export async function acceptInvitation(deps: Deps, userId: string, input: AcceptInput) {
  try {
    return await joinOrganisation(deps, userId, input);
  } catch (error) {
    // Two owners, each alone, accepting each other's invitation at once lock the two
    // organisations in opposite orders; PostgreSQL aborts one, which changed nothing.
    if (pgErrorCode(error) === "40P01") {
      throw conflict("Your organisation changed at the same time; look at it and try again");
    }
    throw error;
  }
}

async function joinOrganisation(deps: Deps, userId: string, input: AcceptInput) {
  const now = nowIso(deps);
  const tokenHash = await sha256Hex(input.token);
  return withTransaction(deps.db, async (tx) => {
    const invitation = await queries.lockInvitation(tx, { tokenHash, now });
    if (!invitation) throw notFound("No such invitation: the link is wrong or incomplete");
    if (invitation.accepted) throw conflict("This invitation has already been used");
    if (invitation.revoked) throw conflict("This invitation was revoked");
    if (invitation.expired) throw conflict("This invitation has expired; ask for a new one");
    const facts = await queries.acceptanceFacts(tx, {
      userId,
      orgId: invitation.org_id,
      now,
    });
    refuseAcceptance(invitation, facts, input.bring_data);
    const done = await queries.acceptInvitation(tx, {
      invitationId: invitation.id,
      userId,
      fromOrgId: facts.current_org_id,
      toOrgId: invitation.org_id,
      role: invitation.role,
      bringData: input.bring_data,
      now,
    });
    if (done.others_in_old_org) throw othersInYourOrg();
    if (!done.accepted) throw conflict("This invitation has already been used");
    const credits = input.bring_data
      ? await moveOrgCredits(tx, {
          userId,
          fromOrgId: facts.current_org_id,
          toOrgId: invitation.org_id,
          now,
        })
      : { moved: 0 };
    return {
      org_id: invitation.org_id,
      role: invitation.role,
      previous_org_id: facts.current_org_id,
      brought_data: input.bring_data,
      credits_moved: credits.moved,
      products_without_sku: Number(done.products_without_sku),
    };
  });
}

function documentSettingsOut(row: Partial<DocumentSettingsRow> | undefined): DocumentSettings {
  return {
    legal_name: row?.legal_name ?? null,
    address: row?.address ?? null,
    phone: row?.phone ?? null,
    email: row?.email ?? null,
    website: row?.website ?? null,
    logo: row?.logo ?? null,
    logo_type: (row?.logo_type as DocumentSettings["logo_type"] | undefined) ?? null,
    bank_details: row?.bank_details ?? null,
    payment_terms: row?.payment_terms ?? null,
    validity_days: row?.validity_days ?? null,
    footer: row?.footer ?? null,
    updated_at: row?.updated_at ? iso(row.updated_at) : null,
  };
}

/** The seller block of the caller's organisation's documents (every field null when never set). */
export async function getDocumentSettings(deps: Deps, userId: string) {
  return documentSettingsOut(await docQueries.getCallerDocumentSettings(deps.db, { userId }));
}

/** Organisation `orgId`'s document settings, for the documents (quotations module). */
export async function documentSettingsOf(deps: Deps, orgId: string) {
  return documentSettingsOut(await docQueries.getDocumentSettings(deps.db, { orgId }));
}

/**
 * Admin+: sets the fields given (a field left out keeps its value, null clears it), audited. The
 * logo is checked (PNG or JPEG that decodes, at most 512 KB) before anything is written.
 */
export async function putDocumentSettings(
  deps: Deps,
  actor: Actor & { id: string },
  input: DocumentSettingsInput,
) {
  const { logo, ...rest } = input;
  const values: Partial<Record<DocumentSettingsField, string | number | null>> = {};
  for (const [key, value] of Object.entries(rest)) {
    if (value !== undefined) values[key as DocumentSettingsField] = value;
  }
  if (logo === null) {
    values.logo = null;
    values.logo_type = null;
  } else if (logo !== undefined) {
    const checked = checkLogo(logo);
    values.logo = checked.base64;
    values.logo_type = checked.type;
  }
  const row = await docQueries.putDocumentSettings(deps.db, {
    userId: actor.id,
    actor,
    values,
    now: nowIso(deps),
  });
  if (!row?.role) throw unauthorized("Account is not active");
  if (!row.updated) throw ADMIN_NEEDED("Changing the document settings");
  return documentSettingsOut(row);
}
