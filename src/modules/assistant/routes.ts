import { createRouter } from "../../http/router";

/** The AI assistant: chat (FAQ first, SSE with stream=true), quick questions, conversations. */
export function createAssistantRoutes() {
  return createRouter();
}
