import { createRouter } from "../../http/router";

/** The AI Digital Employee agent: start a run, list and read pipelines. */
export function createAgentRoutes() {
  return createRouter();
}
