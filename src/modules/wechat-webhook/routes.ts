import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../http/env";
import { ErrorSchema, errorBody, errorResponse, errorResponses } from "../../http/errors";
import { createRouter } from "../../http/router";
import { HandshakeQuery, SignedQuery } from "./schemas";
import {
  answerBuyerMessage,
  openWechatMessage,
  REPLY_TEXT_ONLY,
  sealReply,
  verifyWechatHandshake,
} from "./service";
import { textReplyXml } from "./xml";

const tags = ["Webhooks"];

const signatureErrors = {
  403: errorResponse(
    ErrorSchema,
    "Signature missing, wrong or out of time; its nonce already used for another message; or plaintext while safe mode is configured",
  ),
  503: errorResponse(ErrorSchema, "WECHAT_TOKEN is not set"),
  500: errorResponses[500],
};

const wechatHandshakeRoute = createRoute({
  method: "get",
  path: "/api/v1/webhooks/wechat",
  tags,
  summary: "WeChat server verification: echoes `echostr` when the signature is WeChat's",
  request: { query: HandshakeQuery },
  responses: {
    200: { description: "The echostr", content: { "text/plain": { schema: z.string() } } },
    ...signatureErrors,
  },
});

const wechatMessageRoute = createRoute({
  method: "post",
  path: "/api/v1/webhooks/wechat",
  tags,
  summary:
    "WeChat message push (plaintext, or safe/compatible mode with WECHAT_ENCODING_AES_KEY): a forwarded buyer text is answered with its translation",
  request: { query: SignedQuery },
  responses: {
    200: {
      description: "A passive text reply (XML), or `success` (no reply / answer still running)",
      content: { "application/xml": { schema: z.string() }, "text/plain": { schema: z.string() } },
    },
    400: errorResponse(ErrorSchema, "Not WeChat message XML"),
    ...signatureErrors,
  },
});

/** Keeps background work alive past the response: waitUntil on Workers, nothing on Node. */
function keepAlive(c: Context<AppEnv>) {
  return (work: Promise<unknown>) => {
    try {
      c.executionCtx.waitUntil(work);
    } catch {
      // No execution context (Node): the promise runs on by itself.
    }
  };
}

export function createWechatWebhookRoutes() {
  const router = createRouter();

  router.openapi(wechatHandshakeRoute, async (c) => {
    const query = c.req.valid("query");
    await verifyWechatHandshake(c.get("deps"), query, query.echostr ?? "");
    return c.text(query.echostr ?? "", 200);
  });

  router.openapi(wechatMessageRoute, async (c) => {
    const deps = c.get("deps");
    // Verified (and in safe mode decrypted) before anything is read from the message.
    const opened = await openWechatMessage(deps, c.req.valid("query"), await c.req.text());
    const fields = opened?.fields;
    if (!opened || !fields?.FromUserName || !fields.ToUserName) {
      return c.json(errorBody(400, "The body is not a WeChat message"), 400);
    }
    const reply = async (content: string) =>
      c.body(
        await sealReply(
          deps,
          opened.sealing,
          textReplyXml({
            toUser: fields.FromUserName!,
            fromUser: fields.ToUserName!,
            createTime: deps.clock.now().getTime() / 1000,
            content,
          }),
        ),
        200,
        { "Content-Type": "application/xml; charset=utf-8" },
      );
    // Events (subscribe, menu clicks) and media are acknowledged without a reply.
    if (fields.MsgType === "event") return c.text("success", 200);
    if (fields.MsgType !== "text" || !fields.MsgId || !fields.Content) {
      return reply(REPLY_TEXT_ONLY);
    }
    const answer = await answerBuyerMessage(
      deps,
      { msgId: fields.MsgId, openid: fields.FromUserName, content: fields.Content },
      keepAlive(c),
    );
    return answer === undefined ? c.text("success", 200) : reply(answer);
  });

  return router;
}
