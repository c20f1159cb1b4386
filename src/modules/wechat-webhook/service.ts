import { ApiError } from "../../http/errors";
import { nowIso } from "../../lib/clock";
import { sha256Hex } from "../../lib/crypto";
import type { Deps } from "../../ports";
import {
  decryptWechatMessage,
  encryptWechatMessage,
  importWechatAesKey,
  verifyWechatMessageSignature,
  verifyWechatSignature,
  type WechatAesKey,
  WechatCryptoError,
  wechatMessageSignature,
} from "../../providers/messaging/wechat";
import { TranslateBody } from "../translate/schemas";
import { translate } from "../translate/service";
import * as queries from "./queries";
import { encryptedReplyXml, parseWechatXml } from "./xml";

/**
 * WeChat's signed query: `signature` = sha1 of sorted [token, timestamp, nonce]; in safe and
 * compatible modes also `encrypt_type=aes` and `msg_signature` (which covers the Encrypt too).
 */
export interface WechatSignedQuery {
  signature?: string | undefined;
  timestamp?: string | undefined;
  nonce?: string | undefined;
  encrypt_type?: string | undefined;
  msg_signature?: string | undefined;
}

/** WeChat's timestamps are trusted this far from our clock; nonces are kept as long. */
const WINDOW_SECONDS = 300;

const refused = () =>
  new ApiError(403, "WeChat signature verification failed", {
    code: "signature_invalid",
  });

/** The token, a timestamp within the window and a nonce, or 503/403. */
function signedWindow(deps: Deps, query: WechatSignedQuery) {
  const token = deps.config.WECHAT_TOKEN;
  if (!token) throw new ApiError(503, "The WeChat webhook is not configured");
  const { timestamp, nonce } = query;
  const seconds = Number(timestamp);
  const fresh =
    Number.isInteger(seconds) &&
    Math.abs(deps.clock.now().getTime() / 1000 - seconds) <= WINDOW_SECONDS;
  if (!timestamp || !nonce || !fresh) throw refused();
  return { token, timestamp, nonce, seconds };
}

/** The plaintext-mode signature, which covers token, timestamp and nonce but no body. */
async function verifyPlainSignature(deps: Deps, query: WechatSignedQuery) {
  const window = signedWindow(deps, query);
  if (
    !query.signature ||
    !(await verifyWechatSignature(window.token, window.timestamp, window.nonce, query.signature))
  ) {
    throw refused();
  }
  return window;
}

/**
 * Binds a (timestamp, nonce) to the message it was first used with, in one statement: the same
 * message again is WeChat's own retry and goes on (MsgId then finds the stored reply); another
 * message under a nonce already spent is refused. Nonces past the window are swept a few at a
 * time by the same statement (the timestamp check alone refuses them after that).
 */
async function bindNonce(
  deps: Deps,
  window: { nonce: string; seconds: number },
  message: string,
): Promise<void> {
  const hash = await sha256Hex(message);
  const now = deps.clock.now();
  const expiresAt = new Date((window.seconds + WINDOW_SECONDS) * 1000 + 60_000);
  // A concurrent first use is invisible to this statement's snapshot: one more try sees it.
  for (let attempt = 0; attempt < 2; attempt++) {
    const row = await queries.bindNonce(deps.db, {
      nonce: window.nonce,
      seconds: window.seconds,
      hash,
      now: now.toISOString(),
      expiresAt: expiresAt.toISOString(),
    });
    const seen = row?.inserted ?? row?.existing;
    if (seen === hash) return;
    if (seen) {
      deps.logger.warn("wechat nonce reused for another message", { nonce: window.nonce });
      throw new ApiError(403, "This WeChat signature was already used for another message", {
        code: "signature_invalid",
      });
    }
  }
  throw refused();
}

/**
 * The server-verification handshake (GET): a signature WeChat made within 5 minutes. Its nonce
 * is bound to the echostr, so a handshake's signature can never carry a message push.
 */
export async function verifyWechatHandshake(
  deps: Deps,
  query: WechatSignedQuery,
  echostr: string,
): Promise<void> {
  const window = await verifyPlainSignature(deps, query);
  await bindNonce(deps, window, `handshake\n${echostr}`);
}

/** A verified push: its fields, and the key its reply is sealed with (null in plaintext mode). */
export interface OpenedMessage {
  fields: Record<string, string>;
  sealing: { aes: WechatAesKey; appId: string } | null;
}

/**
 * Verifies and opens a message push; undefined when the body is not WeChat message XML.
 * With WECHAT_ENCODING_AES_KEY set only safe or compatible mode is accepted: `msg_signature`
 * covers the Encrypt, and the sender is read from the decrypted message, never from the
 * plaintext fields beside it. Without it (plaintext mode) the signature covers no body, so the
 * nonce is bound to the body: one captured signature carries one message only.
 */
export async function openWechatMessage(
  deps: Deps,
  query: WechatSignedQuery,
  rawBody: string,
): Promise<OpenedMessage | undefined> {
  const encodingAesKey = deps.config.WECHAT_ENCODING_AES_KEY;
  if (!encodingAesKey) {
    const window = await verifyPlainSignature(deps, query);
    await bindNonce(deps, window, rawBody);
    const fields = parseWechatXml(rawBody);
    return fields ? { fields, sealing: null } : undefined;
  }
  const window = signedWindow(deps, query);
  // A plaintext request here is a downgrade: its signature would not cover the message.
  if (query.encrypt_type !== "aes" || !query.msg_signature) throw refused();
  const encrypted = parseWechatXml(rawBody)?.Encrypt;
  if (!encrypted) return undefined;
  const signed = await verifyWechatMessageSignature(window.token, {
    timestamp: window.timestamp,
    nonce: window.nonce,
    encrypted,
    signature: query.msg_signature,
  });
  if (!signed) throw refused();
  const aes = await importWechatAesKey(encodingAesKey);
  let opened: { message: string; appId: string };
  try {
    opened = await decryptWechatMessage(aes, encrypted, deps.config.WECHAT_APP_ID || undefined);
  } catch (error) {
    if (!(error instanceof WechatCryptoError)) throw error;
    deps.logger.warn("wechat message not decrypted", { reason: error.reason });
    throw refused();
  }
  await bindNonce(deps, window, opened.message);
  const fields = parseWechatXml(opened.message);
  return fields ? { fields, sealing: { aes, appId: opened.appId } } : undefined;
}

/** The passive reply as sent: as is in plaintext mode, else encrypted and signed. */
export async function sealReply(
  deps: Deps,
  sealing: OpenedMessage["sealing"],
  xml: string,
): Promise<string> {
  if (!sealing) return xml;
  const encrypted = await encryptWechatMessage(sealing.aes, xml, sealing.appId);
  const timestamp = String(Math.floor(deps.clock.now().getTime() / 1000));
  const nonce = String(crypto.getRandomValues(new Uint32Array(1))[0]);
  const signature = await wechatMessageSignature(
    deps.config.WECHAT_TOKEN,
    timestamp,
    nonce,
    encrypted,
  );
  return encryptedReplyXml({ encrypted, signature, timestamp, nonce });
}

export const REPLY_NOT_LINKED =
  "请先在 App 中使用微信登录，再转发买家消息给我翻译。Log in to the app with WeChat first, then forward buyers' messages here to translate them.";
export const REPLY_TEXT_ONLY = "目前只能翻译文字消息。Only text messages can be translated.";
export const REPLY_NO_CREDITS = "积分不足，请在 App 中充值。Not enough credits: top up in the app.";
const REPLY_UNAVAILABLE =
  "翻译服务暂时不可用，请稍后再试。Translation is unavailable right now; try again shortly.";
const REPLY_TOO_LONG = "消息太长，无法翻译。The message is too long to translate.";

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
  const row = await queries.recordInboundMessage(deps.db, {
    msgId: message.msgId,
    openid: message.openid,
    content: message.content,
    now: nowIso(deps),
  });
  if (!row) return undefined;
  if (!row.inserted) return row.reply ?? undefined; // a retry: the stored reply, if ready
  const work = replyFor(deps, message, row.user_id, row.language)
    .then(async (reply) => {
      await queries.storeReply(deps.db, { msgId: message.msgId, reply, now: nowIso(deps) });
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
