import type { Context } from "hono";

export interface ClientIpOptions {
  /**
   * How many reverse proxies in front of the app append to `X-Forwarded-For` (the TRUST_PROXY
   * setting). 0: the header is ignored, since any client can send it and pick its own key.
   */
  trustProxyHops: number;
  /**
   * Use `CF-Connecting-IP`. Only where Cloudflare sets it (Workers, or an origin reachable only
   * through Cloudflare): anywhere else a client could send it.
   */
  trustCfHeader: boolean;
}

/** Shape of the env @hono/node-server passes (`{ incoming, outgoing }`, maybe under `server`). */
interface NodeBindings {
  incoming?: { socket?: { remoteAddress?: unknown } };
}

/** Socket peer address on @hono/node-server, read without importing it (this file is edge-safe). */
function nodeRemoteAddress(env: unknown): string | undefined {
  if (!env || typeof env !== "object") return undefined;
  const server = (env as { server?: unknown }).server;
  const bindings = (server && typeof server === "object" ? server : env) as NodeBindings;
  const address = bindings.incoming?.socket?.remoteAddress;
  return typeof address === "string" && address !== "" ? address : undefined;
}

/** `::ffff:1.2.3.4` (an IPv4 peer on a dual-stack socket) becomes `1.2.3.4`. */
function normalize(ip: string): string {
  const trimmed = ip.trim();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(trimmed);
  return mapped?.[1] ?? trimmed;
}

/**
 * The client address rate limits key on.
 *
 * 1. `CF-Connecting-IP` when `trustCfHeader` (Workers).
 * 2. With `trustProxyHops = n > 0`, the n-th `X-Forwarded-For` entry from the right: each trusted
 *    proxy appends the address it saw, so entries further left are client-supplied. With fewer
 *    entries than n, the leftmost one (as Express's numeric `trust proxy` does).
 * 3. The socket address on @hono/node-server.
 * 4. "unknown".
 */
export function clientIp(c: Context, opts: ClientIpOptions): string {
  if (opts.trustCfHeader) {
    const cf = c.req.header("CF-Connecting-IP")?.trim();
    if (cf) return normalize(cf);
  }
  if (opts.trustProxyHops > 0) {
    const hops = (c.req.header("X-Forwarded-For") ?? "")
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean);
    if (hops.length > 0) {
      const index = Math.max(0, hops.length - opts.trustProxyHops);
      const hop = hops[index];
      if (hop) return normalize(hop);
    }
  }
  const socket = nodeRemoteAddress(c.env);
  if (socket) return normalize(socket);
  return "unknown";
}

function ipv6Groups(ip: string): number[] | undefined {
  let s = ip.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const v4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (v4) {
    const b = v4.slice(1, 5).map(Number);
    if (b.some((n) => n > 255)) return undefined;
    const hi = (((b[0] ?? 0) << 8) | (b[1] ?? 0)).toString(16);
    const lo = (((b[2] ?? 0) << 8) | (b[3] ?? 0)).toString(16);
    s = `${s.slice(0, v4.index)}${hi}:${lo}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const parts = [
    ...head,
    ...new Array<string>(halves.length === 2 ? missing : 0).fill("0"),
    ...tail,
  ];
  if (!parts.every((p) => /^[0-9a-f]{1,4}$/i.test(p))) return undefined;
  return parts.map((p) => Number.parseInt(p, 16));
}

/**
 * Rate-limit key for a client address. An IPv6 client usually holds a whole /64, so keying on
 * the full address would hand it 2^64 budgets: IPv6 addresses collapse to their /64 prefix.
 * IPv4 addresses and anything unparsable ("unknown") are returned unchanged.
 */
export function ipRateLimitKey(ip: string): string {
  if (!ip.includes(":")) return ip;
  const groups = ipv6Groups(ip);
  if (!groups) return ip;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}
