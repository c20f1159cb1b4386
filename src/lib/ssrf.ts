/**
 * SSRF guard for URLs that users hand us and the service then fetches (a seller's company
 * website, ...). Edge-safe: only URL, fetch and streams.
 *
 * Residual risk, DNS rebinding: assertResolvesPublic checks the resolver's answers, then the
 * runtime's fetch resolves the name again on its own, so a hostile name server answering with
 * TTL 0 can point the second lookup inside. Workers refuse private destinations at the platform level; on Node a
 * fetch from createGuardedNodeFetch (runtime/node/dns.ts) re-checks at connect time. URLs that
 * admins and operators set (providers) go through lib/outbound.ts, built on this guard.
 */

/** Returns the IP addresses a hostname resolves to (A and AAAA). */
export type HostResolver = (hostname: string) => Promise<string[]>;

export type SsrfReason =
  | "invalid_url"
  | "scheme"
  | "credentials"
  | "port"
  | "private_address"
  | "reserved_name"
  | "trailing_dot"
  | "single_label"
  | "dns_failed"
  | "dns_no_address"
  | "dns_private"
  | "too_many_redirects"
  | "response_too_large"
  | "insecure_scheme"
  | "redirect_offsite";

const USER_MESSAGES: Partial<Record<SsrfReason, string>> = {
  dns_failed: "URL host could not be resolved",
  dns_no_address: "URL host could not be resolved",
  too_many_redirects: "URL redirects too many times",
  response_too_large: "Response is too large",
  insecure_scheme: "URL must use https",
  redirect_offsite: "URL redirects to another host",
};

/** `message` is safe to show a user; `reason` is for code and logs. Never carries addresses. */
export class SsrfBlockedError extends Error {
  override readonly name = "SsrfBlockedError";

  constructor(
    readonly reason: SsrfReason,
    options?: ErrorOptions,
  ) {
    super(USER_MESSAGES[reason] ?? "URL is not allowed", options);
  }
}

export interface UrlPolicy {
  /** Ports a URL may name; default 80 and 443. "any" for operator-set provider URLs. */
  allowedPorts?: readonly number[] | "any";
}

const DEFAULT_PORTS: readonly number[] = [80, 443];

// Names that never belong to a public website; anything else is judged by what it resolves to.
const RESERVED_SUFFIXES = [
  "localhost",
  "local",
  "localdomain",
  "internal",
  "home.arpa",
  "lan",
  "intranet",
];

/** An http(s) URL without credentials, or SsrfBlockedError; nothing about its host yet. */
export function parseHttpUrl(input: string | URL): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new SsrfBlockedError("invalid_url");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new SsrfBlockedError("scheme");
  if (url.username || url.password) throw new SsrfBlockedError("credentials");
  return url;
}

/** Parses a user-given URL and throws SsrfBlockedError unless it may point at the public web. */
export function parsePublicUrl(input: string, policy: UrlPolicy = {}): URL {
  const url = parseHttpUrl(input);
  const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  const ports = policy.allowedPorts ?? DEFAULT_PORTS;
  if (ports !== "any" && !ports.includes(port)) throw new SsrfBlockedError("port");

  // The WHATWG parser has already turned decimal, octal, hex and short IPv4 spellings into
  // dotted quads and canonicalised IPv6, so these two shapes are the only literal forms left.
  const host = url.hostname;
  if (isIpLiteral(host)) {
    if (!isPublicIp(host)) throw new SsrfBlockedError("private_address");
    return url;
  }
  // "localhost." resolves like "localhost" but slips past suffix checks.
  if (host.endsWith(".")) throw new SsrfBlockedError("trailing_dot");
  if (RESERVED_SUFFIXES.some((s) => host === s || host.endsWith(`.${s}`))) {
    throw new SsrfBlockedError("reserved_name");
  }
  // Single labels resolve through the search domains of whatever network we run in.
  if (!host.includes(".")) throw new SsrfBlockedError("single_label");
  return url;
}

export function isIpLiteral(host: string): boolean {
  return host.startsWith("[") || /^\d+\.\d+\.\d+\.\d+$/.test(host);
}

/** True only for globally routable unicast addresses; unparseable input is not public. */
export function isPublicIp(address: string): boolean {
  const v6 = parseIpv6(address);
  if (v6 !== undefined) return isPublicV6(v6);
  const v4 = parseIpv4(address);
  return v4 !== undefined && isPublicV4(v4);
}

interface Cidr {
  base: bigint;
  shift: bigint;
}

function cidr(text: string, bits: 32 | 128): Cidr {
  const [addr = "", prefix = ""] = text.split("/");
  const base = bits === 32 ? parseIpv4(addr) : parseIpv6(addr);
  if (base === undefined) throw new Error(`bad CIDR ${text}`);
  const shift = BigInt(bits - Number(prefix));
  return { base: base >> shift, shift };
}

const inCidr = (ip: bigint, c: Cidr) => ip >> c.shift === c.base;

const V4_BLOCKED = [
  "0.0.0.0/8", // "this network"
  "10.0.0.0/8",
  "100.64.0.0/10", // carrier-grade NAT
  "127.0.0.0/8",
  "169.254.0.0/16", // link-local, cloud metadata endpoints
  "172.16.0.0/12",
  "192.0.0.0/24", // IETF protocol assignments
  "192.0.2.0/24", // TEST-NET-1
  "192.88.99.0/24", // 6to4 relay anycast
  "192.168.0.0/16",
  "198.18.0.0/15", // benchmarking
  "198.51.100.0/24", // TEST-NET-2
  "203.0.113.0/24", // TEST-NET-3
  "224.0.0.0/4", // multicast
  "240.0.0.0/4", // reserved, includes broadcast 255.255.255.255
].map((c) => cidr(c, 32));

function isPublicV4(ip: bigint): boolean {
  return !V4_BLOCKED.some((c) => inCidr(ip, c));
}

// Ranges that carry an IPv4 address: judge the embedded address, or they become a way around
// the IPv4 list (NAT64 gateways and 6to4 relays forward to it).
const V6_EMBEDDED_V4: [Cidr, (ip: bigint) => bigint][] = [
  [cidr("::ffff:0:0/96", 128), (ip) => ip & 0xffffffffn], // IPv4-mapped
  [cidr("64:ff9b::/96", 128), (ip) => ip & 0xffffffffn], // NAT64 well-known prefix
  [cidr("2002::/16", 128), (ip) => (ip >> 80n) & 0xffffffffn], // 6to4
];

// An allow-list: only global unicast is public, which excludes loopback, unspecified, ULA,
// link-local, site-local, multicast and the IPv4-compatible/translated forms in one go.
const V6_GLOBAL_UNICAST = cidr("2000::/3", 128);
const V6_BLOCKED = [
  "2001::/23", // IETF protocol assignments, includes Teredo 2001::/32
  "2001:db8::/32", // documentation
  "3fff::/20", // documentation
].map((c) => cidr(c, 128));

function isPublicV6(ip: bigint): boolean {
  for (const [range, extract] of V6_EMBEDDED_V4) {
    if (inCidr(ip, range)) return isPublicV4(extract(ip));
  }
  return inCidr(ip, V6_GLOBAL_UNICAST) && !V6_BLOCKED.some((c) => inCidr(ip, c));
}

// Normalised through the URL parser so every spelling it accepts (0x7f.1, 2130706433, ...)
// is classified by the address it really means.
function parseIpv4(text: string): bigint | undefined {
  if (!/^[0-9a-fx.]+$/i.test(text)) return undefined;
  let host: string;
  try {
    host = new URL(`http://${text}/`).hostname;
  } catch {
    return undefined;
  }
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  if (!m) return undefined;
  return m.slice(1).reduce((acc, octet) => (acc << 8n) | BigInt(octet), 0n);
}

function parseIpv6(text: string): bigint | undefined {
  let inner = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  // A zone id ("fe80::1%eth0") only scopes a link-local address; classify the address itself.
  inner = inner.split("%")[0] ?? "";
  if (!inner.includes(":") || !/^[0-9a-f:.]+$/i.test(inner)) return undefined;
  let canonical: string;
  try {
    // The serialiser emits lowercase hex groups with at most one "::" and no dotted tail.
    canonical = new URL(`http://[${inner}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
  const [head = "", tail] = canonical.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const groups =
    tail === undefined
      ? headGroups
      : [
          ...headGroups,
          ...Array<string>(8 - headGroups.length - tailGroups.length).fill("0"),
          ...tailGroups,
        ];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(`0x${g}`), 0n);
}

export async function assertResolvesPublic(
  hostname: string,
  resolver: HostResolver,
  signal: AbortSignal,
): Promise<void> {
  if (isIpLiteral(hostname)) return; // already judged by parsePublicUrl
  let addresses: string[];
  try {
    addresses = await untilAborted(resolver(hostname), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    throw new SsrfBlockedError("dns_failed", { cause: error });
  }
  if (addresses.length === 0) throw new SsrfBlockedError("dns_no_address");
  // One private answer is enough: the runtime may connect to any of them.
  if (!addresses.every(isPublicIp)) throw new SsrfBlockedError("dns_private");
}

// HostResolver takes no signal, so the timeout budget is enforced around it.
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    void promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

export function limitBody(res: Response, maxBytes: number, url: URL): Response {
  if (Number(res.headers.get("content-length")) > maxBytes) {
    void res.body?.cancel();
    throw new SsrfBlockedError("response_too_large");
  }
  if (!res.body) return res;
  // Counted after decompression, so a small compressed body cannot expand past the limit.
  let seen = 0;
  const limited = res.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) controller.error(new SsrfBlockedError("response_too_large"));
        else controller.enqueue(chunk);
      },
    }),
  );
  const wrapped = new Response(limited, {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
  });
  // A constructed Response has an empty url; callers resolve relative links against it.
  Object.defineProperty(wrapped, "url", { value: url.href });
  return wrapped;
}

interface DohAnswer {
  type?: number;
  data?: unknown;
}

/**
 * DNS-over-HTTPS JSON resolver (application/dns-json, as served by Cloudflare and Google) for
 * Workers, which have no DNS API. Throws on transport errors and SERVFAIL-like statuses.
 */
export function dohResolver(endpoint: string, fetchImpl: typeof fetch = fetch): HostResolver {
  const query = async (name: string, type: "A" | "AAAA"): Promise<string[]> => {
    const url = new URL(endpoint);
    url.searchParams.set("name", name);
    url.searchParams.set("type", type);
    const res = await fetchImpl(url.href, {
      headers: { accept: "application/dns-json" },
      signal: AbortSignal.timeout(5000),
    });
    if (!res.ok) throw new Error(`DoH query failed with HTTP ${res.status}`);
    const json = (await res.json()) as { Status?: number; Answer?: DohAnswer[] };
    // NOERROR and NXDOMAIN are answers (possibly empty); anything else means we do not know.
    if (json.Status !== 0 && json.Status !== 3) throw new Error(`DoH status ${json.Status}`);
    const wanted = type === "A" ? 1 : 28;
    // CNAME records (type 5) come first in Answer; the resolver has already followed them.
    return (json.Answer ?? []).flatMap((a) =>
      a.type === wanted && typeof a.data === "string" ? [a.data] : [],
    );
  };
  return async (hostname) =>
    (await Promise.all([query(hostname, "A"), query(hostname, "AAAA")])).flat();
}
