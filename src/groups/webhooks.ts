import type { AppRouter } from "../http/router";
import { createWechatWebhookRoutes } from "../modules/wechat-webhook/routes";

/** Route group `webhooks`: the messaging-app webhook. */
export const webhooksRoutes = (): AppRouter[] => [createWechatWebhookRoutes()];
