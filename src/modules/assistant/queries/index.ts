import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../../db/client";
import { selectPage } from "../../../db/page";
import {
  aiActions,
  aiConversations,
  aiMessages,
  systemConfig,
  userCredits,
} from "../../../db/schema";
import { col, type DbRow } from "../../../db/sql";
import { type FaqMatch, faqMatchSql } from "../../ai-admin/queries";
import { type OrgFaqMatch, orgFaqLanguagesSql, orgFaqMatchSql } from "../../faq/queries";

/** The SQL of ai_conversations and ai_messages (owned by assistant). */

const c = alias(aiConversations, "c");
const m = alias(aiMessages, "m");
const conv = aiConversations;
const msg = aiMessages;

type Role = DbRow<typeof aiMessages>["role"];

/**
 * Everything a turn needs before any charge, in one query: whether the conversation is the
 * caller's, the best FAQ match (ai-admin's fragment), the best entry of the organisation's FAQ
 * as asked and the languages of its entries (faq's fragments), the conversation's last `history`
 * messages (oldest first) and the admin's system prompt.
 */
export async function chatContext(
  db: Db,
  input: {
    userId: string;
    conversationId: string | null;
    message: string;
    history: number;
    orgFaqThreshold: number;
  },
) {
  const { userId, conversationId } = input;
  const h = alias(aiMessages, "h");
  const s = systemConfig;
  const [row] = await queryRows<{
    conversation_ok: boolean;
    faq: FaqMatch | string | null;
    org_faq: OrgFaqMatch | string | null;
    org_faq_languages: string[] | string;
    history: { role: Role; content: string }[] | string;
    prompt: string | null;
  }>(
    db,
    sql`select
        (${conversationId}::uuid is null or exists (
          select 1 from ${conv}
          where ${conv.id} = ${conversationId}::uuid and ${conv.userId} = ${userId}::uuid))
          as conversation_ok,
        (select to_jsonb(best) from (${faqMatchSql(input.message)}) best) as faq,
        ${orgFaqMatchSql(userId, input.message, input.orgFaqThreshold)} as org_faq,
        ${orgFaqLanguagesSql(userId)} as org_faq_languages,
        coalesce((select jsonb_agg(jsonb_build_object('role', x.role, 'content', x.content)
            order by x.created_at, x.id)
          from (select ${h.role}, ${h.content}, ${h.createdAt}, ${h.id} from ${msg} ${h}
                where ${h.conversationId} = ${conversationId}::uuid and ${h.userId} = ${userId}::uuid
                order by ${h.createdAt} desc, ${h.id} desc limit ${input.history}) x),
          '[]'::jsonb) as history,
        (select ${s.value} #>> '{}' from ${s} where ${s.key} = 'ai.prompt') as prompt`,
  );
  return row!;
}

/**
 * Writes one turn in one statement: the conversation (created, or its updated_at bumped; a
 * conversation deleted meanwhile yields nothing), the user's message and the answer; with the
 * user's balance after it.
 */
export async function insertTurn(
  db: Db,
  turn: {
    userId: string;
    conversationId: string;
    isNew: boolean;
    title: string;
    message: string;
    askedAt: string;
    answeredAt: string;
    userMessageId: string;
    answerId: string;
    content: string;
    source: string;
    action: { id?: string; type: string; data: object } | null;
  },
) {
  const uc = userCredits;
  const act = aiActions;
  const action = turn.action?.id ? turn.action : null;
  const [row] = await queryRows<
    Pick<DbRow<typeof aiMessages>, "id" | "created_at"> & {
      balance: DbRow<typeof userCredits>["balance"] | null;
    }
  >(
    db,
    sql`with created as (
        insert into ${conv} (${col(conv.id)}, ${col(conv.userId)}, ${col(conv.title)},
          ${col(conv.createdAt)}, ${col(conv.updatedAt)})
        select ${turn.conversationId}::uuid, ${turn.userId}::uuid, ${turn.title},
          ${turn.askedAt}::timestamptz, ${turn.answeredAt}::timestamptz
        where ${turn.isNew}::boolean
        returning ${col(conv.id)}),
      bumped as (
        update ${conv} set ${col(conv.updatedAt)} = ${turn.answeredAt}::timestamptz
        where not ${turn.isNew}::boolean and ${conv.id} = ${turn.conversationId}::uuid
          and ${conv.userId} = ${turn.userId}::uuid
        returning ${conv.id}),
      target as (select id from created union all select id from bumped),
      asked as (
        insert into ${msg} (${col(msg.id)}, ${col(msg.conversationId)}, ${col(msg.userId)},
          ${col(msg.role)}, ${col(msg.content)}, ${col(msg.createdAt)})
        select ${turn.userMessageId}::uuid, id, ${turn.userId}::uuid, 'user', ${turn.message},
          ${turn.askedAt}::timestamptz
        from target
        returning ${col(msg.id)}),
      answered as (
        insert into ${msg} (${col(msg.id)}, ${col(msg.conversationId)}, ${col(msg.userId)},
          ${col(msg.role)}, ${col(msg.content)}, ${col(msg.source)}, ${col(msg.action)},
          ${col(msg.createdAt)})
        select ${turn.answerId}::uuid, id, ${turn.userId}::uuid, 'assistant', ${turn.content},
          ${turn.source}, ${turn.action ? JSON.stringify(turn.action) : null}::jsonb,
          ${turn.answeredAt}::timestamptz
        from target
        returning ${col(msg.id)}, ${col(msg.createdAt)}),
      proposed as (
        insert into ${act} (${col(act.id)}, ${col(act.userId)}, ${col(act.conversationId)},
          ${col(act.messageId)}, ${col(act.type)}, ${col(act.data)}, ${col(act.createdAt)})
        select ${action?.id ?? null}::uuid, ${turn.userId}::uuid, t.id, a.id, ${action?.type ?? null},
          ${action ? JSON.stringify(action.data) : null}::jsonb, ${turn.answeredAt}::timestamptz
        from answered a, target t
        where ${action?.id ?? null}::uuid is not null
        returning 1)
      select a.id, a.created_at,
        (select ${uc.balance} from ${uc} where ${uc.userId} = ${turn.userId}::uuid) as balance
      from answered a`,
  );
  return row;
}

export type ConversationRow = Pick<
  DbRow<typeof aiConversations>,
  "id" | "title" | "created_at" | "updated_at"
> & { message_count: number };

const messageCount = sql`(select count(*)::int from ${msg} ${m} where ${m.conversationId} = ${c.id})`;

/** The user's conversations, last active first, each with its latest message's preview. */
export function listConversationRows(
  db: Db,
  input: { userId: string; page: number; size: number; previewChars: number },
) {
  return selectPage<
    ConversationRow & {
      last_message: { role: Role; preview: string; created_at: string } | string | null;
    }
  >(db, {
    columns: sql`${c.id}, ${c.title}, ${c.createdAt}, ${c.updatedAt},
      ${messageCount} as message_count,
      (select jsonb_build_object('role', ${m.role}, 'preview', left(${m.content}, ${input.previewChars}),
          'created_at', ${m.createdAt})
        from ${msg} ${m} where ${m.conversationId} = ${c.id}
        order by ${m.createdAt} desc, ${m.id} desc limit 1) as last_message`,
    from: sql`${conv} ${c}`,
    where: sql`${c.userId} = ${input.userId}::uuid`,
    order: sql`${c.updatedAt} desc, ${c.id} desc`,
    page: input.page,
    size: input.size,
  });
}

/** A message as a conversation read returns it (action as stored). */
export type MessageRow = Pick<
  DbRow<typeof aiMessages>,
  "id" | "role" | "content" | "source" | "action" | "created_at"
>;

/** One conversation of the user with its last `messages` messages, oldest first. */
export async function getConversationRow(
  db: Db,
  input: { userId: string; id: string; messages: number },
) {
  const x = alias(aiMessages, "x");
  const [row] = await queryRows<ConversationRow & { messages: MessageRow[] | string }>(
    db,
    sql`select ${c.id}, ${c.title}, ${c.createdAt}, ${c.updatedAt},
        ${messageCount} as message_count,
        coalesce((select jsonb_agg(jsonb_build_object('id', ${m.id}, 'role', ${m.role},
              'content', ${m.content}, 'source', ${m.source}, 'action', ${m.action},
              'created_at', ${m.createdAt}) order by ${m.createdAt}, ${m.id})
          from (select ${x}.* from ${msg} ${x} where ${x.conversationId} = ${c.id}
                order by ${x.createdAt} desc, ${x.id} desc limit ${input.messages}) ${m}),
          '[]'::jsonb) as messages
      from ${conv} ${c}
      where ${c.id} = ${input.id}::uuid and ${c.userId} = ${input.userId}::uuid`,
  );
  return row;
}

/** Deletes one conversation of the user and its messages (cascade); whether it existed. */
export async function deleteConversationRow(db: Db, input: { userId: string; id: string }) {
  const rows = await queryRows<Pick<DbRow<typeof aiConversations>, "id">>(
    db,
    sql`delete from ${conv} where ${conv.id} = ${input.id}::uuid and ${conv.userId} = ${input.userId}::uuid
        returning ${conv.id}`,
  );
  return rows.length > 0;
}
