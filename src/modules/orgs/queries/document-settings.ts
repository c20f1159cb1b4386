import { type SQL, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../../db/client";
import { type OrgRole, orgDocumentSettings, orgMembers } from "../../../db/schema";
import { callerOrgSql } from "../../../db/scope";
import { col, columnList, type DbRow } from "../../../db/sql";
import { type Actor, auditCte } from "../../admin/queries/audit";

const s = orgDocumentSettings;

export type DocumentSettingsRow = Omit<DbRow<typeof orgDocumentSettings>, "updated_by">;

const COLUMNS = sql`${columnList([s.orgId, s.legalName, s.address, s.phone, s.email, s.website, s.logo, s.logoType, s.bankDetails, s.paymentTerms, s.validityDays, s.footer, s.updatedAt])}`;

/** The fields a PUT may set, by their API name. */
const DOCUMENT_SETTINGS_COLUMNS = {
  legal_name: s.legalName,
  address: s.address,
  phone: s.phone,
  email: s.email,
  website: s.website,
  logo: s.logo,
  logo_type: s.logoType,
  bank_details: s.bankDetails,
  payment_terms: s.paymentTerms,
  validity_days: s.validityDays,
  footer: s.footer,
} as const;
export type DocumentSettingsField = keyof typeof DOCUMENT_SETTINGS_COLUMNS;

/** The document settings of organisation `orgId`; undefined when never set. */
export async function getDocumentSettings(
  db: Db,
  p: { orgId: string },
): Promise<DocumentSettingsRow | undefined> {
  const [row] = await queryRows<DocumentSettingsRow>(
    db,
    sql`select ${COLUMNS} from ${s} where ${s.orgId} = ${p.orgId}`,
  );
  return row;
}

/** The document settings of the caller's organisation; undefined when never set. */
export async function getCallerDocumentSettings(
  db: Db,
  p: { userId: string },
): Promise<DocumentSettingsRow | undefined> {
  const [row] = await queryRows<DocumentSettingsRow>(
    db,
    sql`select ${COLUMNS} from ${s} where ${s.orgId} = ${callerOrgSql(p.userId)}`,
  );
  return row;
}

/**
 * One statement: sets `values` (the fields given; the others keep their stored value) of the
 * caller's organisation's document settings when the caller is its admin or owner, with the
 * audit row of the change (the logo shown as set / unset / replaced, never its bytes). `role`
 * null: no organisation; `updated` false with a role: refused by role.
 */
export async function putDocumentSettings(
  db: Db,
  p: {
    userId: string;
    actor: Actor;
    values: Partial<Record<DocumentSettingsField, string | number | null>>;
    now: string;
  },
) {
  const keys = Object.keys(p.values) as DocumentSettingsField[];
  const columns = keys.map((k) => DOCUMENT_SETTINGS_COLUMNS[k]);
  const values = keys.map((k) => sql`${p.values[k]}`);
  const updates: SQL[] = [
    ...columns.map((c) => sql`${col(c)} = excluded.${col(c)}`),
    sql`${col(s.updatedBy)} = excluded.${col(s.updatedBy)}`,
    sql`${col(s.updatedAt)} = excluded.${col(s.updatedAt)}`,
  ];
  const inserted = [s.orgId, ...columns, s.updatedBy, s.updatedAt].map((c) => col(c));
  const m = orgMembers;
  const fields = keys.filter((k) => k !== "logo_type").sort();
  const [row] = await queryRows<
    { role: OrgRole | null; updated: boolean } & Partial<DocumentSettingsRow>
  >(
    db,
    sql`with caller as (
        select ${m.orgId} as org_id, ${m.role} as role from ${m} where ${m.userId} = ${p.userId}::uuid
      ), old as (
        -- The row as the statement's snapshot has it, for the audit's "before" (FOR UPDATE here
        -- would skip the very row the upsert below changes in the same statement).
        select ${s}.* from ${s} join caller on ${s.orgId} = caller.org_id
      ), w as (
        insert into ${s} (${sql.join(inserted, sql`, `)})
        select caller.org_id, ${sql.join([...values, sql`${p.userId}::uuid`, sql`${p.now}::timestamptz`], sql`, `)}
        from caller where caller.role in ('owner', 'admin')
        on conflict (${col(s.orgId)}) do update set ${sql.join(updates, sql`, `)}
        returning *
      ), ${auditCte(p.actor, {
        action: "org.document_settings.update",
        target: "org",
        rows: sql`w`,
        kind: "custom",
        before: sql`(select to_jsonb(o) from old o)`,
        after: sql`to_jsonb(r)`,
        targetId: sql`r.org_id`,
        fields,
        secrets: { logo: { column: "logo" } },
        at: sql`${p.now}::timestamptz`,
      })}
      select caller.role, (w.org_id is not null) as updated, w.*
      from caller left join w on true`,
  );
  return row;
}
