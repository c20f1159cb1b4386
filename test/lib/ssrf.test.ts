import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  assertResolvesPublic,
  dohResolver,
  type HostResolver,
  isPublicIp,
  parsePublicUrl,
  SsrfBlockedError,
  type SsrfReason,
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

describe("assertResolvesPublic (what lib/outbound.ts checks before each hop)", () => {
  const resolver: HostResolver = async (hostname) => {
    const answer = DNS[hostname];
    if (!answer) throw new Error(`ENOTFOUND ${hostname}`);
    return answer;
  };
  const check = (hostname: string) =>
    assertResolvesPublic(hostname, resolver, AbortSignal.timeout(5000));

  it("accepts a name that resolves to public addresses only", async () => {
    await expect(check("public.example")).resolves.toBeUndefined();
  });

  it.each([
    ["inside.example", "dns_private"],
    ["mixed.example", "dns_private"],
    ["mixed6.example", "dns_private"],
    ["mapped.example", "dns_private"],
    ["garbage.example", "dns_private"],
    ["empty.example", "dns_no_address"],
    ["unknown.example", "dns_failed"],
  ])("rejects %s as %s", async (hostname, reason) => {
    const error = await check(hostname).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SsrfBlockedError);
    expect(error).toMatchObject({ reason });
    // The user message must not leak what the name resolved to.
    expect((error as Error).message).not.toMatch(/10\.0\.0\.5|fd00|127\.0\.0\.1/);
  });

  it("applies the signal to a hanging resolver", async () => {
    const hanging: HostResolver = () => new Promise(() => {});
    await expect(
      assertResolvesPublic("public.example", hanging, AbortSignal.timeout(50)),
    ).rejects.toMatchObject({ name: "TimeoutError" });
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

  it("drives assertResolvesPublic's DNS checks", async () => {
    const check = (hostname: string) =>
      assertResolvesPublic(hostname, resolver(), AbortSignal.timeout(5000));
    await expect(check("rebind.example")).rejects.toMatchObject({ reason: "dns_private" });
    await expect(check("nx.example")).rejects.toMatchObject({ reason: "dns_no_address" });
    await expect(check("broken.example")).rejects.toMatchObject({ reason: "dns_failed" });
  });
});

describe("nodeResolver", () => {
  it("resolves localhost to loopback, which the guard rejects", async () => {
    const addresses = await nodeResolver("localhost");
    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.some(isPublicIp)).toBe(false);
  });
});
