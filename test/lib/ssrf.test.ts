import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  dohResolver,
  type HostResolver,
  isPublicIp,
  parsePublicUrl,
  SsrfBlockedError,
  type SsrfReason,
  safeFetch,
} from "../../src/lib/ssrf";
import { nodeResolver } from "../../src/runtime/node/dns";

function reasonOf(input: string, allowedPorts?: number[]): SsrfReason | "allowed" {
  try {
    parsePublicUrl(input, { allowedPorts });
    return "allowed";
  } catch (error) {
    if (error instanceof SsrfBlockedError) return error.reason;
    throw error;
  }
}

async function startServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ port: number; close: () => Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("WHATWG URL parser normalisation that parsePublicUrl relies on", () => {
  it.each([
    ["http://2130706433/", "127.0.0.1"],
    ["http://0177.0.0.1/", "127.0.0.1"],
    ["http://0x7f.0.0.1/", "127.0.0.1"],
    ["http://0x7f000001/", "127.0.0.1"],
    ["http://017700000001/", "127.0.0.1"],
    ["http://127.1/", "127.0.0.1"],
    ["http://0/", "0.0.0.0"],
    ["http://127.0.0.1./", "127.0.0.1"],
    ["http://%31%32%37.0.0.1/", "127.0.0.1"],
    ["http://\uff11\uff12\uff17.\uff10.\uff10.\uff11/", "127.0.0.1"],
    ["http://[::ffff:127.0.0.1]/", "[::ffff:7f00:1]"],
    ["http://[0:0:0:0:0:0:0:1]/", "[::1]"],
    ["http://[64:ff9b::169.254.169.254]/", "[64:ff9b::a9fe:a9fe]"],
  ])("%s has hostname %s", (input, hostname) => {
    expect(new URL(input).hostname).toBe(hostname);
  });
});

describe("parsePublicUrl", () => {
  it.each([
    // alternative IPv4 spellings of loopback
    "http://2130706433/",
    "http://0177.0.0.1/",
    "http://0x7f.0.0.1/",
    "http://0x7f000001/",
    "http://017700000001/",
    "http://127.1/",
    "http://127.0.1/",
    "http://127.0.0.1./",
    "http://%31%32%37.0.0.1/",
    "http://\uff11\uff12\uff17.\uff10.\uff10.\uff11/",
    // private and reserved IPv4 ranges
    "http://0/",
    "http://0.0.0.0/",
    "http://0.255.255.255/",
    "http://10.0.0.1/",
    "http://100.64.0.1/",
    "http://100.127.255.255/",
    "http://127.255.255.254/",
    "http://169.254.169.254/latest/meta-data/",
    "http://2852039166/", // 169.254.169.254 as one decimal
    "http://172.16.5.4/",
    "http://172.31.255.255/",
    "http://192.0.0.170/",
    "http://192.0.2.1/",
    "http://192.168.1.1/",
    "http://198.18.0.1/",
    "http://198.19.255.255/",
    "http://224.0.0.1/",
    "http://239.255.255.250/",
    "http://240.0.0.1/",
    "http://255.255.255.255/",
    // IPv6 loopback, unspecified, ULA, link-local, site-local, multicast, documentation
    "http://[::1]/",
    "http://[0:0:0:0:0:0:0:1]/",
    "http://[::]/",
    "http://[fc00::1]/",
    "http://[fd12:3456::1]/",
    "http://[fe80::1]/",
    "http://[fec0::1]/",
    "http://[ff02::1]/",
    "http://[2001:db8::1]/",
    "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", // Teredo
    // IPv4 embedded in IPv6
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:7f00:1]/",
    "http://[0:0:0:0:0:ffff:127.0.0.1]/",
    "http://[::ffff:169.254.169.254]/",
    "http://[::ffff:a9fe:a9fe]/",
    "http://[::127.0.0.1]/", // deprecated IPv4-compatible
    "http://[::ffff:0:8.8.8.8]/", // IPv4-translated (SIIT)
    "http://[64:ff9b::127.0.0.1]/",
    "http://[64:ff9b::7f00:1]/",
    "http://[64:ff9b::169.254.169.254]/",
    "http://[64:ff9b::10.0.0.1]/",
    "http://[64:ff9b:1::8.8.8.8]/", // local-use NAT64 prefix
    "http://[2002:7f00:1::]/",
    "http://[2002:a9fe:a9fe::1]/",
    "http://[2002:c0a8:101::]/",
  ])("blocks %s as private_address", (input) => {
    expect(reasonOf(input)).toBe("private_address");
  });

  it.each([
    "http://localhost/",
    "http://LOCALHOST/",
    "http://localhost:80/",
    "http://foo.localhost/",
    "http://printer.local/",
    "http://metadata.google.internal/",
    "http://router.home.arpa/",
  ])("blocks %s as reserved_name", (input) => {
    expect(reasonOf(input)).toBe("reserved_name");
  });

  it.each(["http://localhost./", "http://example.com./", "http://metadata.google.internal./"])(
    "blocks %s as trailing_dot",
    (input) => {
      expect(reasonOf(input)).toBe("trailing_dot");
    },
  );

  it.each(["http://metadata/", "http://wiki/", "https://kubernetes/"])(
    "blocks %s as single_label",
    (input) => {
      expect(reasonOf(input)).toBe("single_label");
    },
  );

  it.each([
    "http://user:pass@example.com/",
    "http://user@example.com/",
    "http://:pass@example.com/",
    "https://example.com@169.254.169.254/",
  ])("blocks %s as credentials", (input) => {
    expect(reasonOf(input)).toBe("credentials");
  });

  it.each([
    "ftp://example.com/",
    "file:///etc/passwd",
    "gopher://example.com:70/",
    "ws://example.com/",
    "javascript:alert(1)",
    "data:text/plain,hi",
  ])("blocks %s as scheme", (input) => {
    expect(reasonOf(input)).toBe("scheme");
  });

  it.each([
    "http://example.com:8080/",
    "https://example.com:8443/",
    "http://example.com:22/",
    "http://93.184.216.34:6379/",
  ])("blocks %s as port", (input) => {
    expect(reasonOf(input)).toBe("port");
  });

  it.each(["not a url", "http://", "http://[::1/", "http://1.2.3.4.5/", "/relative/path"])(
    "blocks %s as invalid_url",
    (input) => {
      expect(reasonOf(input)).toBe("invalid_url");
    },
  );

  it.each([
    "https://example.com/path?q=1#frag",
    "http://example.com:80/",
    "https://example.com:443/",
    "http://www.example.co.uk/",
    "https://xn--bcher-kva.example/",
    "https://bücher.example/",
    "http://93.184.216.34/",
    "http://1.1.1.1/",
    "http://172.32.0.1/",
    "http://100.128.0.1/",
    "http://198.20.0.1/",
    "http://223.255.255.255/",
    "http://[2606:4700:4700::1111]/",
    "http://[::ffff:8.8.8.8]/",
    "http://[64:ff9b::8.8.8.8]/",
    "http://[2002:808:808::1]/",
  ])("allows %s", (input) => {
    expect(reasonOf(input)).toBe("allowed");
  });

  it("lets the caller replace the allowed ports", () => {
    expect(reasonOf("https://example.com:8443/", [443, 8443])).toBe("allowed");
    expect(reasonOf("http://example.com/", [443, 8443])).toBe("port");
  });

  it("returns the parsed URL", () => {
    expect(parsePublicUrl("HTTPS://Example.COM/a/../b").href).toBe("https://example.com/b");
  });

  it("keeps the user message generic", () => {
    const error = new SsrfBlockedError("dns_private");
    expect(error.message).toBe("URL is not allowed");
    expect(error.name).toBe("SsrfBlockedError");
    expect(error).toBeInstanceOf(Error);
  });
});

describe("isPublicIp", () => {
  it.each([
    "8.8.8.8",
    "93.184.216.34",
    "2606:4700:4700::1111",
    "[2606:4700:4700::1111]",
    "2a00:1450:4001:80b::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
  ])("%s is public", (address) => {
    expect(isPublicIp(address)).toBe(true);
  });

  it.each([
    "127.0.0.1",
    "10.0.0.5",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "255.255.255.255",
    "2130706433",
    "0x7f.1",
    "::1",
    "[::1]",
    "::",
    "fe80::1%eth0",
    "fd00::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "64:ff9b::a9fe:a9fe",
    "2002:a00:1::",
    "2001:db8::1",
    // unparseable input is never public
    "",
    "example.com",
    "8.8.8.8/8",
    "1.2.3.4.5",
    "::g",
    "1:2:3:4:5:6:7:8:9",
  ])("%s is not public", (address) => {
    expect(isPublicIp(address)).toBe(false);
  });
});

const DNS: Record<string, string[]> = {
  "public.example": ["93.184.216.34"],
  "other.example": ["93.184.216.35"],
  "inside.example": ["10.0.0.5"],
  "mixed.example": ["93.184.216.34", "10.0.0.5"],
  "mixed6.example": ["2606:2800:220:1:248:1893:25c8:1946", "fd00::1"],
  "mapped.example": ["::ffff:127.0.0.1"],
  "garbage.example": ["not-an-ip"],
  "empty.example": [],
};

describe("safeFetch", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let requests: string[]; // URLs the injected fetch was asked for, before rewriting
  let lookups: string[];
  let loopHits = 0;

  const resolver: HostResolver = async (hostname) => {
    lookups.push(hostname);
    const answer = DNS[hostname];
    if (!answer) throw new Error(`ENOTFOUND ${hostname}`);
    return answer;
  };

  // Stands in for the public internet: hosts that the fake DNS calls public are served by the
  // local test server; anything else reaching fetch is a guard failure.
  const testFetch: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    requests.push(url.href);
    if (url.hostname !== "public.example" && url.hostname !== "other.example") {
      throw new Error(`guard let through ${url.href}`);
    }
    url.protocol = "http:";
    url.host = `127.0.0.1:${server.port}`;
    return fetch(url, init);
  };

  const opts = () => ({ resolver, fetch: testFetch });

  beforeAll(async () => {
    server = await startServer((req, res) => {
      const path = req.url ?? "/";
      const redirect = (location: string, status = 302) => {
        res.writeHead(status, { location });
        res.end();
      };
      if (path === "/ok") {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end("hello");
      } else if (path === "/echo") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ method: req.method, headers: req.headers }));
      } else if (path === "/to-metadata") {
        redirect("http://169.254.169.254/latest/meta-data/");
      } else if (path === "/to-self") {
        redirect(`http://127.0.0.1:${server.port}/ok`);
      } else if (path === "/to-mapped") {
        redirect("http://[::ffff:7f00:1]/ok", 301);
      } else if (path === "/to-decimal") {
        redirect("http://2130706433/ok", 307);
      } else if (path === "/to-inside-name") {
        redirect("http://mixed.example/ok", 308);
      } else if (path === "/to-localhost") {
        redirect("http://localhost/ok");
      } else if (path === "/to-file") {
        redirect("file:///etc/passwd");
      } else if (path === "/to-port") {
        redirect("http://public.example:6379/");
      } else if (path === "/relative") {
        redirect("/ok");
      } else if (path === "/same-origin-echo") {
        redirect("/echo", 307);
      } else if (path === "/cross-origin-echo") {
        redirect("http://other.example/echo", 307);
      } else if (path === "/see-other") {
        redirect("/echo", 303);
      } else if (path === "/loop") {
        loopHits++;
        redirect("/loop");
      } else if (path === "/big") {
        res.writeHead(200, { "content-length": "1000" });
        res.end("x".repeat(1000));
      } else if (path === "/big-chunked") {
        res.writeHead(200, { "content-type": "text/plain" });
        for (let i = 0; i < 10; i++) res.write("x".repeat(100));
        res.end();
      } else if (path === "/slow") {
        // never answers
      } else {
        res.writeHead(404);
        res.end();
      }
    });
  });

  afterAll(async () => {
    await server.close();
  });

  beforeEach(() => {
    requests = [];
    lookups = [];
    loopHits = 0;
  });

  it("fetches a public URL through the injected fetch", async () => {
    const res = await safeFetch("http://public.example/ok", opts());
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("hello");
    expect(lookups).toEqual(["public.example"]);
    expect(requests).toEqual(["http://public.example/ok"]);
  });

  it("rejects a private literal before resolving or fetching", async () => {
    await expect(safeFetch("http://0x7f.1/", opts())).rejects.toMatchObject({
      reason: "private_address",
    });
    expect(lookups).toEqual([]);
    expect(requests).toEqual([]);
  });

  it.each([
    ["http://inside.example/", "dns_private"],
    ["http://mixed.example/", "dns_private"],
    ["http://mixed6.example/", "dns_private"],
    ["http://mapped.example/", "dns_private"],
    ["http://garbage.example/", "dns_private"],
    ["http://empty.example/", "dns_no_address"],
    ["http://unknown.example/", "dns_failed"],
  ])("rejects %s as %s without fetching", async (url, reason) => {
    const error = await safeFetch(url, opts()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SsrfBlockedError);
    expect(error).toMatchObject({ reason });
    // The user message must not leak what the name resolved to.
    expect((error as Error).message).not.toMatch(/10\.0\.0\.5|fd00|127\.0\.0\.1/);
    expect(requests).toEqual([]);
  });

  it.each([
    ["/to-metadata", "private_address"],
    ["/to-self", "private_address"],
    ["/to-mapped", "private_address"],
    ["/to-decimal", "private_address"],
    ["/to-inside-name", "dns_private"],
    ["/to-localhost", "reserved_name"],
    ["/to-file", "scheme"],
    ["/to-port", "port"],
  ])("blocks the redirect hop of %s as %s", async (path, reason) => {
    // The test server's own port is allowed so that /to-self is judged by its address.
    const allowedPorts = [80, 443, server.port];
    await expect(
      safeFetch(`http://public.example${path}`, { ...opts(), allowedPorts }),
    ).rejects.toMatchObject({ name: "SsrfBlockedError", reason });
    expect(requests).toEqual([`http://public.example${path}`]);
  });

  it("blocks a redirect to the test server's own port by port first", async () => {
    await expect(safeFetch("http://public.example/to-self", opts())).rejects.toMatchObject({
      reason: "port",
    });
    expect(requests).toEqual(["http://public.example/to-self"]);
  });

  it("follows a relative redirect and checks the next hop", async () => {
    const res = await safeFetch("http://public.example/relative", opts());
    expect(await res.text()).toBe("hello");
    expect(requests).toEqual(["http://public.example/relative", "http://public.example/ok"]);
    expect(lookups).toEqual(["public.example", "public.example"]);
  });

  it("stops a redirect loop at maxRedirects", async () => {
    await expect(
      safeFetch("http://public.example/loop", { ...opts(), maxRedirects: 3 }),
    ).rejects.toMatchObject({ reason: "too_many_redirects" });
    expect(loopHits).toBe(4); // the first request plus three followed redirects
  });

  it("defaults maxRedirects to 5", async () => {
    await expect(safeFetch("http://public.example/loop", opts())).rejects.toMatchObject({
      reason: "too_many_redirects",
    });
    expect(loopHits).toBe(6);
  });

  const secrets = { authorization: "Bearer s3cret", cookie: "sid=1", "x-trace": "t" };

  it("keeps credentials on a same-origin redirect", async () => {
    const res = await safeFetch("http://public.example/same-origin-echo", {
      ...opts(),
      headers: secrets,
    });
    const echo = (await res.json()) as { headers: Record<string, string> };
    expect(echo.headers.authorization).toBe("Bearer s3cret");
    expect(echo.headers.cookie).toBe("sid=1");
  });

  it("strips credentials on a cross-origin redirect", async () => {
    const res = await safeFetch("http://public.example/cross-origin-echo", {
      ...opts(),
      headers: secrets,
    });
    const echo = (await res.json()) as { headers: Record<string, string> };
    expect(requests).toEqual([
      "http://public.example/cross-origin-echo",
      "http://other.example/echo",
    ]);
    expect(echo.headers.authorization).toBeUndefined();
    expect(echo.headers.cookie).toBeUndefined();
    expect(echo.headers["x-trace"]).toBe("t");
  });

  it("turns a POST into a GET on 303", async () => {
    const res = await safeFetch("http://public.example/see-other", {
      ...opts(),
      method: "POST",
      body: "a=1",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    const echo = (await res.json()) as { method: string; headers: Record<string, string> };
    expect(echo.method).toBe("GET");
    expect(echo.headers["content-type"]).toBeUndefined();
  });

  it("rejects a body whose Content-Length exceeds maxBytes", async () => {
    await expect(
      safeFetch("http://public.example/big", { ...opts(), maxBytes: 100 }),
    ).rejects.toMatchObject({ reason: "response_too_large" });
  });

  it("errors the body stream once a chunked body passes maxBytes", async () => {
    const res = await safeFetch("http://public.example/big-chunked", { ...opts(), maxBytes: 500 });
    expect(res.url).toBe("http://public.example/big-chunked");
    await expect(res.text()).rejects.toMatchObject({ reason: "response_too_large" });
  });

  it("passes a body within maxBytes through unchanged", async () => {
    const res = await safeFetch("http://public.example/big-chunked", { ...opts(), maxBytes: 1000 });
    expect(await res.text()).toBe("x".repeat(1000));
  });

  it("times out", async () => {
    await expect(
      safeFetch("http://public.example/slow", { ...opts(), timeoutMs: 100 }),
    ).rejects.toMatchObject({ name: "TimeoutError" });
  });

  it("applies the timeout to a hanging resolver", async () => {
    const hanging: HostResolver = () => new Promise(() => {});
    await expect(
      safeFetch("http://public.example/ok", { resolver: hanging, fetch: testFetch, timeoutMs: 50 }),
    ).rejects.toMatchObject({ name: "TimeoutError" });
    expect(requests).toEqual([]);
  });
});

describe("dohResolver", () => {
  let doh: Awaited<ReturnType<typeof startServer>>;
  let queries: string[];

  const ZONE: Record<string, { Status: number; A?: string[]; AAAA?: string[] }> = {
    "www.example.com": {
      Status: 0,
      A: ["93.184.216.34"],
      AAAA: ["2606:2800:220:1:248:1893:25c8:1946"],
    },
    "v4only.example": { Status: 0, A: ["93.184.216.34", "93.184.216.35"] },
    "rebind.example": { Status: 0, A: ["127.0.0.1"] },
    "nx.example": { Status: 3 },
    "broken.example": { Status: 2 },
  };

  beforeAll(async () => {
    doh = await startServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://doh.test");
      if (url.pathname !== "/dns-query" || req.headers.accept !== "application/dns-json") {
        res.writeHead(400);
        res.end();
        return;
      }
      const name = url.searchParams.get("name") ?? "";
      const type = url.searchParams.get("type") as "A" | "AAAA";
      queries.push(`${name} ${type}`);
      if (name === "http-error.example") {
        res.writeHead(500);
        res.end();
        return;
      }
      const record = ZONE[name] ?? { Status: 3 };
      const typeCode = type === "A" ? 1 : 28;
      const data = record[type] ?? [];
      const answer = [
        // resolvers put the CNAME chain first; it must be skipped
        ...(data.length ? [{ name, type: 5, TTL: 300, data: "edge.cdn.example." }] : []),
        ...data.map((d) => ({ name: "edge.cdn.example.", type: typeCode, TTL: 300, data: d })),
      ];
      res.writeHead(200, { "content-type": "application/dns-json" });
      res.end(
        JSON.stringify({
          Status: record.Status,
          Question: [{ name, type: typeCode }],
          ...(answer.length ? { Answer: answer } : {}),
        }),
      );
    });
  });

  afterAll(async () => {
    await doh.close();
  });

  beforeEach(() => {
    queries = [];
  });

  const resolver = () => dohResolver(`http://127.0.0.1:${doh.port}/dns-query`);

  it("returns A and AAAA addresses and skips CNAMEs", async () => {
    expect(await resolver()("www.example.com")).toEqual([
      "93.184.216.34",
      "2606:2800:220:1:248:1893:25c8:1946",
    ]);
    expect(queries.sort()).toEqual(["www.example.com A", "www.example.com AAAA"]);
  });

  it("returns only A records when there is no AAAA", async () => {
    expect(await resolver()("v4only.example")).toEqual(["93.184.216.34", "93.184.216.35"]);
  });

  it("returns nothing for NXDOMAIN", async () => {
    expect(await resolver()("nx.example")).toEqual([]);
  });

  it("throws on SERVFAIL and on HTTP errors", async () => {
    await expect(resolver()("broken.example")).rejects.toThrow("DoH status 2");
    await expect(resolver()("http-error.example")).rejects.toThrow("HTTP 500");
  });

  it("accepts an injected fetch", async () => {
    const seen: string[] = [];
    const spy: typeof fetch = (input, init) => {
      seen.push(String(input));
      return fetch(input, init);
    };
    const r = dohResolver(`http://127.0.0.1:${doh.port}/dns-query?ct=application/dns-json`, spy);
    expect(await r("v4only.example")).toHaveLength(2);
    expect(seen.every((u) => u.includes("ct=application%2Fdns-json"))).toBe(true);
  });

  it("drives safeFetch's DNS checks", async () => {
    const options = { resolver: resolver(), fetch: () => Promise.reject(new Error("unreached")) };
    await expect(safeFetch("http://rebind.example/", options)).rejects.toMatchObject({
      reason: "dns_private",
    });
    await expect(safeFetch("http://nx.example/", options)).rejects.toMatchObject({
      reason: "dns_no_address",
    });
    await expect(safeFetch("http://broken.example/", options)).rejects.toMatchObject({
      reason: "dns_failed",
    });
  });
});

describe("nodeResolver", () => {
  it("resolves localhost to loopback, which the guard rejects", async () => {
    const addresses = await nodeResolver("localhost");
    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.some(isPublicIp)).toBe(false);
  });
});
