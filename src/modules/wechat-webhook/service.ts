import { sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import type { Deps } from "../../deps";
import { ApiError } from "../../http/errors";
import { nowIso } from "../../lib/clock";
import { verifyWechatSignature } from "../../providers/messaging/wechat";
import { TranslateBody } from "../translate/schemas";
import { translate } from "../translate/service";

/** WeChat's signed query: `signature` = sha1 of sorted [token, timestamp, nonce]. */
export interface WechatSignedQuery {
  signature?: string | undefined;
  timestamp?: string | undefined;
  nonce?: string | undefined;
}

/**
 * A signature WeChat made over a timestamp within 5 minutes of now. In plaintext mode the
 * signature does not cover the body, so the time window (and MsgId de-duplication) is what
 * limits a replay of a captured request.
 */
export async function verifyWechatRequest(deps: Deps, query: WechatSignedQuery): Promise<void> {
  const token = deps.config.WECHAT_TOKEN;
  if (!token) throw new ApiError(503, "The WeChat webhook is not configured");
  const { signature, timestamp, nonce } = query;
  const seconds = Number(timestamp);
  const fresh =
    Number.isInteger(seconds) && Math.abs(deps.clock.now().getTime() / 1000 - seconds) <= 300;
  if (
    !signature ||
    !timestamp ||
    !nonce ||
    !fresh ||
    !(await verifyWechatSignature(token, timestamp, nonce, signature))
  ) {
    throw new ApiError(403, "WeChat signature verification failed");
  }
}

export const REPLY_NOT_LINKED =
  "请先在 App 中使用微信登录，再转发买家消息给我翻译。Log in to the app with WeChat first, then forward buyers' messages here to translate them.";
export const REPLY_TEXT_ONLY = "目前只能翻译文字消息。Only text messages can be translated.";
export const REPLY_NO_CREDITS = "积分不足，请在 App 中充值。Not enough credits: top up in the app.";
export const REPLY_UNAVAILABLE =
  "翻译服务暂时不可用，请稍后再试。Translation is unavailable right now; try again shortly.";
export const REPLY_TOO_LONG = "消息太长，无法翻译。The message is too long to translate.";

/** WeChat waits 5 s for an answer; past this budget it gets "success" and retries later. */
const ANSWER_BUDGET_MS = 4_000;

export interface InboundMessage {
  msgId: string;
  openid: string;
  content: string;
}

/**
 * The reply text for a forwarded buyer message: its translation into the user's language,
 * charged as a translation, exactly once per MsgId however often WeChat retries. Returns
 * undefined when the answer is not ready within the budget (the caller acknowledges with
 * "success"; WeChat's retry then finds the stored reply).
 */
export async function answerBuyerMessage(
  deps: Deps,
  message: InboundMessage,
  keepAlive: (work: Promise<unknown>) => void,
): Promise<string | undefined> {
  // One statement: record the message (or find it), with the sender's account and language.
  const [row] = await queryRows<{
    inserted: boolean;
    reply: string | null;
    user_id: string | null;
    language: string | null;
  }>(
    deps.db,
    sql`with sender as (select id, language from users
                        where wechat_openid = ${message.openid} and status = 'active'),
      ins as (
        insert into wechat_inbound_messages (msg_id, openid, user_id, content, created_at)
        select ${message.msgId}, ${message.openid}, (select id from sender), ${message.content},
          ${nowIso(deps)}::timestamptz
        on conflict (msg_id) do nothing
        returning msg_id)
      select exists (select 1 from ins) as inserted,
        (select reply from wechat_inbound_messages where msg_id = ${message.msgId}) as reply,
        (select id from sender) as user_id, (select language from sender) as language`,
  );
  if (!row) return undefined;
  if (!row.inserted) return row.reply ?? undefined; // a retry: the stored reply, if ready
  const work = replyFor(deps, message, row.user_id, row.language)
    .then(async (reply) => {
      await queryRows(
        deps.db,
        sql`update wechat_inbound_messages set reply = ${reply},
              answered_at = ${nowIso(deps)}::timestamptz
            where msg_id = ${message.msgId}`,
      );
      return reply;
    })
    .catch((error: unknown) => {
      // Nothing stored: WeChat's retries get "success" and the seller no reply.
      deps.logger.error("wechat message failed", { error: String(error) });
      return undefined;
    });
  keepAlive(work);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ANSWER_BUDGET_MS);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function replyFor(
  deps: Deps,
  message: InboundMessage,
  userId: string | null,
  language: string | null,
): Promise<string> {
  if (!userId) return REPLY_NOT_LINKED;
  const input = TranslateBody.safeParse({
    text: message.content,
    target_lang: normaliseTarget(language),
  });
  if (!input.success) return REPLY_TOO_LONG;
  try {
    const result = await translate(
      deps,
      { userId, idempotencyKey: `wechat:${message.msgId}` },
      input.data,
    );
    return result.translation;
  } catch (error) {
    if (error instanceof ApiError && error.status === 402) return REPLY_NO_CREDITS;
    deps.logger.warn("wechat message translation failed", { error: String(error) });
    return REPLY_UNAVAILABLE;
  }
}

/** The user's profile language when it is a plain code, else Chinese (the sellers' default). */
function normaliseTarget(language: string | null): string {
  return language && /^[a-z]{2,3}([-_][A-Za-z]{2})?$/i.test(language) ? language : "zh";
}
