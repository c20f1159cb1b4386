import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import { users, wechatInboundMessages, wechatWebhookNonces } from "../../db/schema";
import { col, columnNames, type DbRow } from "../../db/sql";

const wn = wechatWebhookNonces;
const wm = wechatInboundMessages;

/**
 * Binds (nonce, timestamp) to a message hash unless already bound, sweeping up to 100 expired
 * nonces in the same statement. Returns the hash this statement bound (`inserted`) and the one
 * stored before it, as its snapshot sees it (`existing`).
 */
export async function bindNonce(
  db: Db,
  p: { nonce: string; seconds: number; hash: string; now: string; expiresAt: string },
) {
  const [row] = await queryRows<{
    inserted: DbRow<typeof wechatWebhookNonces>["message_hash"] | null;
    existing: DbRow<typeof wechatWebhookNonces>["message_hash"] | null;
  }>(
    db,
    sql`with swept as (
        delete from ${wn} where (${wn.nonce}, ${wn.timestamp}) in (
          select ${wn.nonce}, ${wn.timestamp} from ${wn}
          where ${wn.expiresAt} < ${p.now}::timestamptz limit 100)),
      ins as (
        insert into ${wn} (${columnNames([wn.nonce, wn.timestamp, wn.messageHash, wn.expiresAt])})
        values (${p.nonce}, ${p.seconds}, ${p.hash}, ${p.expiresAt}::timestamptz)
        on conflict (${col(wn.nonce)}, ${col(wn.timestamp)}) do nothing
        returning ${col(wn.messageHash)})
      select (select message_hash from ins) as inserted,
        (select ${wn.messageHash} from ${wn}
         where ${wn.nonce} = ${p.nonce} and ${wn.timestamp} = ${p.seconds}) as existing`,
  );
  return row;
}

/**
 * Records a forwarded message (or finds it: WeChat's retry), with the sender's active account
 * and language, in one statement. `inserted` false: a retry, `reply` the stored one if ready.
 */
export async function recordInboundMessage(
  db: Db,
  p: { msgId: string; openid: string; content: string; now: string },
) {
  const [row] = await queryRows<
    Pick<DbRow<typeof wechatInboundMessages>, "reply" | "user_id"> &
      Pick<DbRow<typeof users>, "language"> & { inserted: boolean }
  >(
    db,
    sql`with sender as (select ${users.id}, ${users.language} from ${users}
                        where ${users.wechatOpenid} = ${p.openid} and ${users.status} = 'active'),
      ins as (
        insert into ${wm} (${columnNames([wm.msgId, wm.openid, wm.userId, wm.content, wm.createdAt])})
        select ${p.msgId}, ${p.openid}, (select id from sender), ${p.content},
          ${p.now}::timestamptz
        on conflict (${col(wm.msgId)}) do nothing
        returning ${col(wm.msgId)})
      select exists (select 1 from ins) as inserted,
        (select ${wm.reply} from ${wm} where ${wm.msgId} = ${p.msgId}) as reply,
        (select id from sender) as user_id, (select language from sender) as language`,
  );
  return row;
}

/** Stores the reply to a forwarded message. */
export async function storeReply(db: Db, p: { msgId: string; reply: string; now: string }) {
  await queryRows(
    db,
    sql`update ${wm} set ${col(wm.reply)} = ${p.reply}, ${col(wm.answeredAt)} = ${p.now}::timestamptz
        where ${wm.msgId} = ${p.msgId}`,
  );
}
