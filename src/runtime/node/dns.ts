import { lookup } from "node:dns/promises";
import type { HostResolver } from "../../lib/ssrf";

/**
 * Resolves through getaddrinfo, the same path Node's fetch takes to connect, so /etc/hosts
 * entries are judged too. verbatim keeps every address in resolver order.
 */
export const nodeResolver: HostResolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => a.address);
};
