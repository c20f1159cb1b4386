import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../../db/client";
import { selectPage } from "../../../db/page";
import { marketingContents, marketingEvents } from "../../../db/schema";
import { columnList, columnNames, type DbRow } from "../../../db/sql";

const mc = marketingContents;
const me = marketingEvents;

const CONTENT_COLUMNS = columnList([
  mc.id,
  mc.kind,
  mc.productId,
  mc.audience,
  mc.language,
  mc.tone,
  mc.content,
  mc.provider,
  mc.createdAt,
]);

export type ContentRow = Pick<
  DbRow<typeof marketingContents>,
  | "id"
  | "kind"
  | "product_id"
  | "audience"
  | "language"
  | "tone"
  | "content"
  | "provider"
  | "created_at"
>;

export async function insertMarketingContent(
  db: Db,
  params: {
    userId: string;
    kind: string;
    productId: string | null;
    audience: string | null;
    language: string;
    tone: string | null;
    content: string;
    provider: string;
    now: string;
  },
): Promise<ContentRow> {
  const [row] = await queryRows<ContentRow>(
    db,
    sql`insert into ${mc} (${columnNames([mc.userId, mc.kind, mc.productId, mc.audience, mc.language, mc.tone, mc.content, mc.provider, mc.createdAt])})
        values (${params.userId}, ${params.kind}, ${params.productId}, ${params.audience},
          ${params.language}, ${params.tone}, ${params.content}, ${params.provider}, ${params.now})
        returning ${CONTENT_COLUMNS}`,
  );
  return row!;
}

/** A page of the user's generated contents, newest first, optionally of one kind. */
export function listMarketingContents(
  db: Db,
  params: { userId: string; kind?: string | undefined; page: number; size: number },
) {
  return selectPage<ContentRow>(db, {
    columns: CONTENT_COLUMNS,
    from: sql`${mc}`,
    where: sql`${mc.userId} = ${params.userId}${params.kind ? sql` and ${mc.kind} = ${params.kind}` : sql``}`,
    order: sql`${mc.createdAt} desc, ${mc.id} desc`,
    page: params.page,
    size: params.size,
  });
}

export async function insertMarketingEvent(
  db: Db,
  params: { userId: string; eventType: string; content: string; now: string },
) {
  const [row] = await queryRows<
    Pick<DbRow<typeof marketingEvents>, "id" | "event_type" | "content" | "created_at">
  >(
    db,
    sql`insert into ${me} (${columnNames([me.userId, me.eventType, me.content, me.createdAt])})
        values (${params.userId}, ${params.eventType}, ${params.content}, ${params.now})
        returning ${columnList([me.id, me.eventType, me.content, me.createdAt])}`,
  );
  return row!;
}

/** The user's event counts by type over [start, end). */
export function countMarketingEvents(
  db: Db,
  params: { userId: string; start: string; end: string },
) {
  return queryRows<Pick<DbRow<typeof marketingEvents>, "event_type"> & { count: number | string }>(
    db,
    sql`select ${me.eventType}, count(*) as count from ${me}
        where ${me.userId} = ${params.userId} and ${me.createdAt} >= ${params.start}
          and ${me.createdAt} < ${params.end}
        group by ${me.eventType}`,
  );
}
