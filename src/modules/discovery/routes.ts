import { createRouter } from "../../http/router";

/** Customer discovery: search (billed), saved records. */
export function createDiscoveryRoutes() {
  return createRouter();
}
