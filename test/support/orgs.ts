import { sql } from "drizzle-orm";
import type { App } from "../../src/app";
import type { Database } from "../../src/db/client";
import type { OrgRole } from "../../src/db/schema";
import { registerUser, type Session } from "./client";

/**
 * Company workspaces in tests (issue #22) without going through invitations: moves registered
 * accounts into the owner's organisation with a role, as an accepted invitation would (without
 * bring_data). The invitation routes have their own tests (test/api/org-*.test.ts).
 */
export async function joinOrg(
  database: Pick<Database, "db">,
  owner: Pick<Session, "userId">,
  member: Pick<Session, "userId">,
  role: Exclude<OrgRole, "owner">,
): Promise<void> {
  await database.db.execute(sql`update org_members set role = ${role},
      org_id = (select org_id from org_members where user_id = ${owner.userId}::uuid)
    where user_id = ${member.userId}::uuid`);
}

/** The organisation id of an account. */
export async function orgIdOf(
  database: Pick<Database, "db">,
  session: Pick<Session, "userId">,
): Promise<string> {
  const result = await database.db.execute(
    sql`select org_id from org_members where user_id = ${session.userId}::uuid`,
  );
  const rows = (result as unknown as { rows: { org_id: string }[] }).rows;
  return rows[0]!.org_id;
}

export interface Company {
  owner: Session;
  admin: Session;
  manager: Session;
  member: Session;
  /** A second member of the same organisation. */
  colleague: Session;
  /** The owner of another organisation. */
  outsider: Session;
}

/** A company of five (owner, admin, manager, two members) and the owner of another one. */
export async function createCompany(ctx: {
  app: App;
  database: Pick<Database, "db">;
}): Promise<Company> {
  const [owner, admin, manager, member, colleague, outsider] = await Promise.all(
    ["Owner", "Admin", "Manager", "Member", "Colleague", "Outsider"].map((name) =>
      registerUser(ctx.app, { name }),
    ),
  );
  await joinOrg(ctx.database, owner!, admin!, "admin");
  await joinOrg(ctx.database, owner!, manager!, "manager");
  await joinOrg(ctx.database, owner!, member!, "member");
  await joinOrg(ctx.database, owner!, colleague!, "member");
  return {
    owner: owner!,
    admin: admin!,
    manager: manager!,
    member: member!,
    colleague: colleague!,
    outsider: outsider!,
  };
}
