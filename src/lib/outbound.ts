/**
 * One policy for every URL the server fetches on its own behalf: AI, MT and search providers
 * (admin-set base_url), exchange rates, the payment gateway, Stripe, WeChat, the mail API and
 * the PDF font. Those URLs come from admins and operators, not from the public, but an admin
 * account or a pasted config is enough to aim the server (and the provider key it sends) at
 * cloud metadata or an internal service, so the same rules as user URLs apply, with two
 * differences: any port is allowed (model servers listen on 8000, 11434, ...), and the operator
 * can list hosts in OUTBOUND_ALLOW_HOSTS to reach a private address on purpose (vLLM, Ollama).
 * Edge-safe: URL, fetch and streams only.
 *
 * DNS is checked just before each hop's connect; the runtime's fetch resolves again, so on Node
 * the runtime passes a fetch whose connect lookup applies the same check (runtime/node/dns.ts).
 * On Workers the platform refuses private destinations itself; the DoH check here is the rest.
 */
import {
  assertResolvesPublic,
  type HostResolver,
  isIpLiteral,
  limitBody,
  parseHttpUrl,
  parsePublicUrl,
  SsrfBlockedError,
} from "./ssrf";

export interface OutboundPolicy {
  /** https only (production) except to listed hosts: keys and prompts never cross in clear. */
  requireHttps: boolean;
  /** OUTBOUND_ALLOW_HOSTS entries: `host` (any port) or `host:port`, trusted even when private. */
  allowHosts: readonly string[];
}

export function outboundPolicy(config: {
  APP_ENV: string;
  OUTBOUND_ALLOW_HOSTS: readonly string[];
}): OutboundPolicy {
  return {
    requireHttps: config.APP_ENV === "production",
    allowHosts: config.OUTBOUND_ALLOW_HOSTS,
  };
}

interface AllowEntry {
  host: string;
  port: number | undefined;
}

/** `host`, `host:port`, `[v6]` or `[v6]:port`; hostnames normalised as the URL parser does. */
export function parseAllowEntry(entry: string): AllowEntry | undefined {
  const m = /^(\[[0-9a-f:.]+\]|[^:/\s[\]@?#]+)(?::(\d{1,5}))?$/i.exec(entry.trim());
  if (!m?.[1]) return undefined;
  let host: string;
  try {
    host = new URL(`http://${m[1]}/`).hostname;
  } catch {
    return undefined;
  }
  const port = m[2] === undefined ? undefined : Number(m[2]);
  if (port !== undefined && (port < 1 || port > 65535)) return undefined;
  return { host, port };
}

const portOf = (url: URL) => (url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80);

/** True when the operator listed this URL's host (with any port, or with exactly its port). */
function isAllowListed(url: URL, policy: OutboundPolicy): boolean {
  const port = portOf(url);
  return policy.allowHosts.some((text) => {
    const entry = parseAllowEntry(text);
    return entry !== undefined && entry.host === url.hostname && (entry.port ?? port) === port;
  });
}

/**
 * Judges a URL without DNS (admin writes and every hop): http(s) only, https in production, no
 * credentials, and a public-looking host unless the operator allow-listed it. Throws
 * SsrfBlockedError.
 */
export function checkOutboundUrl(input: string | URL, policy: OutboundPolicy): URL {
  const url = parseHttpUrl(input);
  // A listed host is the operator's own decision, plain http included: a vLLM or Ollama on the
  // private network rarely has a certificate. Anything else crosses networks we do not own.
  if (isAllowListed(url, policy)) return url;
  if (policy.requireHttps && url.protocol !== "https:") {
    throw new SsrfBlockedError("insecure_scheme");
  }
  return parsePublicUrl(url.href, { allowedPorts: "any" });
}

export interface OutboundFetchOptions {
  policy: OutboundPolicy;
  resolver: HostResolver;
  /** The runtime's fetch (on Node one that re-checks addresses at connect time). */
  fetch?: typeof fetch;
  /** Same-origin redirects followed; a redirect elsewhere is refused. Default 3. */
  maxRedirects?: number;
  /** Whole exchange incl. reading the body; above the longest provider timeout. Default 310 s. */
  timeoutMs?: number;
  /** The body stream errors past this many bytes. Default 32 MiB (the largest, a CJK font). */
  maxBytes?: number;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const BODY_HEADERS = ["content-type", "content-length", "content-encoding", "content-language"];

/** A Request's fields are the defaults; init overrides them, as in fetch itself. */
function mergedInit(input: RequestInfo | URL, init: RequestInit): RequestInit {
  const fromRequest: RequestInit =
    input instanceof Request
      ? { method: input.method, headers: input.headers, body: input.body, signal: input.signal }
      : {};
  return { ...fromRequest, ...init };
}

/** A hop's host: allow-listed, an address literal (already judged), or resolving public. */
async function assertHostAllowed(
  url: URL,
  policy: OutboundPolicy,
  resolver: HostResolver,
  signal: AbortSignal,
): Promise<void> {
  if (isAllowListed(url, policy) || isIpLiteral(url.hostname)) return;
  await assertResolvesPublic(url.hostname, resolver, signal);
}

/** A redirect's target, which must stay on the same origin. */
function sameOriginRedirect(location: string, url: URL): URL {
  let next: URL;
  try {
    next = new URL(location, url);
  } catch {
    throw new SsrfBlockedError("invalid_url");
  }
  if (next.origin !== url.origin) throw new SsrfBlockedError("redirect_offsite");
  return next;
}

/** Whether a redirect turns the request into a body-less GET (the fetch standard's rewrites). */
function redirectsAsGet(status: number, method: string): boolean {
  return (
    (status === 303 && method !== "HEAD") ||
    ((status === 301 || status === 302) && method === "POST")
  );
}

/**
 * fetch() under the outbound policy: every hop's URL is checked, its host resolved and every
 * address judged (unless allow-listed), redirects followed by hand only within the same origin
 * (a provider key must never follow a Location to another host), and time and size bounded.
 */
export function createOutboundFetch(options: OutboundFetchOptions): typeof fetch {
  const {
    policy,
    resolver,
    fetch: fetchImpl = (input, init) => fetch(input, init),
    maxRedirects = 3,
    timeoutMs = 310_000,
    maxBytes = 32 * 1024 * 1024,
  } = options;

  return async (input, init = {}) => {
    const requestInit = mergedInit(input, init);
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = requestInit.signal ? AbortSignal.any([requestInit.signal, timeout]) : timeout;
    const headers = new Headers(requestInit.headers);
    let method = (requestInit.method ?? "GET").toUpperCase();
    let body = requestInit.body;
    const href = input instanceof Request ? input.url : String(input);
    let url = checkOutboundUrl(href, policy);

    for (let hop = 0; ; hop++) {
      await assertHostAllowed(url, policy, resolver, signal);
      const res = await fetchImpl(url.href, {
        ...requestInit,
        method,
        body,
        headers,
        signal,
        redirect: "manual",
      });
      const location = REDIRECT_STATUSES.has(res.status) ? res.headers.get("location") : null;
      if (location === null) return limitBody(res, maxBytes, url);

      await res.body?.cancel();
      if (hop >= maxRedirects) throw new SsrfBlockedError("too_many_redirects");
      const next = sameOriginRedirect(location, url);
      if (redirectsAsGet(res.status, method)) {
        method = "GET";
        body = null;
        for (const h of BODY_HEADERS) headers.delete(h);
      }
      url = checkOutboundUrl(next, policy);
    }
  };
}
