/**
 * WeChat's message XML (plaintext mode): a flat `<xml>` of elements whose text is either CDATA or
 * plain, e.g. `<xml><ToUserName><![CDATA[gh_1]]></ToUserName><FromUserName><![CDATA[openid]]>
 * </FromUserName><CreateTime>1700000000</CreateTime><MsgType><![CDATA[text]]></MsgType>
 * <Content><![CDATA[hello]]></Content><MsgId>1234567890123456</MsgId></xml>`. Only that shape
 * is read: no entities beyond the five XML ones, no DTD (a `<!DOCTYPE` is refused outright, so no
 * entity expansion can happen), no nesting.
 */

/** An element whose text is any mix of CDATA sections and plain text (a `]]>` is split). */
const FIELD = /<([A-Za-z][A-Za-z0-9_]*)>((?:<!\[CDATA\[[\s\S]*?\]\]>|[^<])*)<\/\1>/g;
const PART = /<!\[CDATA\[([\s\S]*?)\]\]>|([^<]+)/g;

const ENTITIES: Record<string, string> = {
  "&lt;": "<",
  "&gt;": ">",
  "&amp;": "&",
  "&quot;": '"',
  "&apos;": "'",
};

/** The `<xml>` fields, or undefined when the body is not that shape. */
export function parseWechatXml(body: string): Record<string, string> | undefined {
  const trimmed = body.trim();
  if (!trimmed.startsWith("<xml>") || !trimmed.endsWith("</xml>") || /<!DOCTYPE/i.test(trimmed)) {
    return undefined;
  }
  const fields: Record<string, string> = {};
  for (const [, name, inner] of trimmed.slice(5, -6).matchAll(FIELD)) {
    let text = "";
    for (const [, cdata, plain] of inner!.matchAll(PART)) {
      text += cdata ?? plain!.replace(/&(lt|gt|amp|quot|apos);/g, (e) => ENTITIES[e] ?? e);
    }
    fields[name!] = text;
  }
  return fields;
}

/** CDATA that survives any text: a `]]>` inside is split across two sections. */
const cdata = (text: string) => `<![CDATA[${text.replaceAll("]]>", "]]]]><![CDATA[>")}]]>`;

/** A passive text reply to the sender of `to` (the message's FromUserName). */
export function textReplyXml(input: {
  toUser: string;
  fromUser: string;
  createTime: number;
  content: string;
}): string {
  return (
    `<xml><ToUserName>${cdata(input.toUser)}</ToUserName>` +
    `<FromUserName>${cdata(input.fromUser)}</FromUserName>` +
    `<CreateTime>${Math.floor(input.createTime)}</CreateTime>` +
    `<MsgType>${cdata("text")}</MsgType><Content>${cdata(input.content)}</Content></xml>`
  );
}

/** The envelope of an encrypted passive reply (safe and compatible modes). */
export function encryptedReplyXml(input: {
  encrypted: string;
  signature: string;
  timestamp: string;
  nonce: string;
}): string {
  return (
    `<xml><Encrypt>${cdata(input.encrypted)}</Encrypt>` +
    `<MsgSignature>${cdata(input.signature)}</MsgSignature>` +
    `<TimeStamp>${input.timestamp}</TimeStamp><Nonce>${cdata(input.nonce)}</Nonce></xml>`
  );
}
