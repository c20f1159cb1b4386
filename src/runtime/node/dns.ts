import { type LookupAddress, type LookupAllOptions, lookup as osLookup } from "node:dns";
import { lookup } from "node:dns/promises";
import type { LookupFunction } from "node:net";
import { Agent, fetch as undiciFetch } from "undici";
import { type OutboundPolicy, parseAllowEntry } from "../../lib/outbound";
import { type HostResolver, isPublicIp, SsrfBlockedError } from "../../lib/ssrf";

/**
 * Resolves through getaddrinfo, the same path Node's fetch takes to connect, so /etc/hosts
 * entries are judged too. verbatim keeps every address in resolver order.
 */
export const nodeResolver: HostResolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => a.address);
};

type AllLookup = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A socket `lookup` that refuses a private answer for a host the operator did not list. The
 * outbound policy checks DNS before each fetch, but fetch resolves again to connect: a name
 * server answering public first and 127.0.0.1 second (TTL 0) would get past that check. This
 * judges the very addresses the socket connects to. Ports are judged earlier, by the URL check.
 */
function guardedLookup(
  policy: OutboundPolicy,
  baseLookup: AllLookup = osLookup as AllLookup,
): LookupFunction {
  const listed = new Set(policy.allowHosts.flatMap((e) => parseAllowEntry(e)?.host ?? []));
  return (hostname, options, callback) => {
    baseLookup(hostname, { ...options, all: true, verbatim: true }, (error, addresses) => {
      const cb = callback as (
        error: NodeJS.ErrnoException | null,
        address: string | LookupAddress[],
        family?: number,
      ) => void;
      if (error) return cb(error, options.all ? [] : "", 0);
      if (!listed.has(hostname.toLowerCase()) && !addresses.every((a) => isPublicIp(a.address))) {
        return cb(new SsrfBlockedError("dns_private"), options.all ? [] : "", 0);
      }
      if (options.all) return cb(null, addresses);
      const first = addresses[0];
      if (!first) return cb(new SsrfBlockedError("dns_no_address"), "", 0);
      return cb(null, first.address, first.family);
    });
  };
}

/**
 * The Node runtime's fetch for RuntimeAdapters.fetch: undici's own fetch over an Agent whose
 * connections resolve through guardedLookup (undici is the library Node's fetch is built on;
 * its own fetch and Agent are used together so the two never come from different versions).
 */
export function createGuardedNodeFetch(
  policy: OutboundPolicy,
  baseLookup?: AllLookup,
): typeof fetch {
  const dispatcher = new Agent({ connect: { lookup: guardedLookup(policy, baseLookup) } });
  return ((input: string | URL | Request, init?: RequestInit) =>
    undiciFetch(
      input as Parameters<typeof undiciFetch>[0],
      {
        ...init,
        dispatcher,
      } as Parameters<typeof undiciFetch>[1],
    )) as unknown as typeof fetch;
}
