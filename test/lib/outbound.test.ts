import type { LookupAddress } from "node:dns";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config";
import {
  checkOutboundUrl,
  createOutboundFetch,
  type OutboundPolicy,
  outboundPolicy,
} from "../../src/lib/outbound";
import { type HostResolver, SsrfBlockedError, type SsrfReason } from "../../src/lib/ssrf";
import { createGuardedNodeFetch } from "../../src/runtime/node/dns";

const OPEN: OutboundPolicy = { requireHttps: false, allowHosts: [] };

function verdict(input: string, policy: OutboundPolicy = OPEN): SsrfReason | "allowed" {
  try {
    checkOutboundUrl(input, policy);
    return "allowed";
  } catch (error) {
    if (error instanceof SsrfBlockedError) return error.reason;
    throw error;
  }
}

async function reasonOf(promise: Promise<unknown>): Promise<SsrfReason | "ok"> {
  try {
    await promise;
    return "ok";
  } catch (error) {
    if (error instanceof SsrfBlockedError) return error.reason;
    if (error instanceof Error && error.cause instanceof SsrfBlockedError) {
      return error.cause.reason;
    }
    throw error;
  }
}

async function startServer(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? "");
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const publicResolver: HostResolver = async () => ["93.184.216.34"];
const noDns: HostResolver = async () => {
  throw new Error("no DNS in this test");
};

describe("checkOutboundUrl (admin writes and every hop)", () => {
  it.each([
    ["http://169.254.169.254/latest/meta-data/", "private_address"],
    ["http://[::1]:8000/v1", "private_address"],
    ["http://0.0.0.0:11434/", "private_address"],
    ["http://2130706433/", "private_address"],
    ["http://0x7f.1/", "private_address"],
    ["http://10.0.0.5:8000/v1", "private_address"],
    ["http://[::ffff:169.254.169.254]/", "private_address"],
    ["http://localhost:11434/", "reserved_name"],
    ["http://metadata.google.internal/", "reserved_name"],
    ["http://ollama:11434/", "single_label"],
    ["http://user:pw@api.example.com/", "credentials"],
    ["file:///etc/passwd", "scheme"],
    ["not a url", "invalid_url"],
  ])("refuses %s by default (%s)", (input, reason) => {
    expect(verdict(input)).toBe(reason);
  });

  it("allows public hosts on any port (model servers listen on 8000, 11434, ...)", () => {
    expect(verdict("https://api.openai.com/v1")).toBe("allowed");
    expect(verdict("http://api.example.com:8443/v1")).toBe("allowed");
  });

  it("allows a private host the operator listed, with its port or any port", () => {
    const policy = outboundPolicy(
      parseConfig({ OUTBOUND_ALLOW_HOSTS: "10.0.0.5:8000, localhost, [::1]:11434, ollama" }),
    );
    expect(verdict("http://10.0.0.5:8000/v1", policy)).toBe("allowed");
    expect(verdict("http://10.0.0.5:22/", policy)).toBe("private_address");
    expect(verdict("http://localhost:11434/", policy)).toBe("allowed");
    expect(verdict("http://localhost:9999/", policy)).toBe("allowed");
    expect(verdict("http://[::1]:11434/", policy)).toBe("allowed");
    expect(verdict("http://[::1]:8000/", policy)).toBe("private_address");
    expect(verdict("http://ollama:11434/api", policy)).toBe("allowed");
    // Listing one loopback spelling does not open the others.
    expect(verdict("http://169.254.169.254/", policy)).toBe("private_address");
  });

  it("normalises listed hosts as URLs do, so a decimal spelling matches its dotted quad", () => {
    const policy: OutboundPolicy = { requireHttps: false, allowHosts: ["127.0.0.1:8000"] };
    expect(verdict("http://2130706433:8000/", policy)).toBe("allowed");
  });

  it("requires https in production, except to a host the operator listed", () => {
    const production = outboundPolicy({
      APP_ENV: "production",
      OUTBOUND_ALLOW_HOSTS: ["10.0.0.5:8000"],
    });
    expect(verdict("http://api.openai.com/v1", production)).toBe("insecure_scheme");
    expect(verdict("http://10.0.0.6:8000/v1", production)).toBe("insecure_scheme");
    expect(verdict("http://10.0.0.5:8000/v1", production)).toBe("allowed");
    expect(verdict("https://10.0.0.5:8000/v1", production)).toBe("allowed");
    expect(verdict("http://api.openai.com/v1", OPEN)).toBe("allowed");
    expect(verdict("https://api.openai.com/v1", production)).toBe("allowed");
  });

  it("rejects a malformed OUTBOUND_ALLOW_HOSTS at start-up, naming the setting", () => {
    expect(() => parseConfig({ OUTBOUND_ALLOW_HOSTS: "http://10.0.0.5/" })).toThrow(
      /OUTBOUND_ALLOW_HOSTS/,
    );
  });
});

describe("createOutboundFetch", () => {
  let main: Awaited<ReturnType<typeof startServer>>;
  let other: Awaited<ReturnType<typeof startServer>>;
  let route: (req: IncomingMessage, res: ServerResponse) => void;

  beforeAll(async () => {
    main = await startServer((req, res) => route(req, res));
    other = await startServer((_req, res) => res.end("internal secret"));
  });
  afterAll(async () => {
    await main.close();
    await other.close();
  });
  beforeEach(() => {
    main.hits.length = 0;
    other.hits.length = 0;
    route = (_req, res) => res.end("ok");
  });

  const allowMain = (): OutboundPolicy => ({
    requireHttps: false,
    allowHosts: [`127.0.0.1:${main.port}`],
  });

  it("refuses a loopback server by default and never connects to it", async () => {
    const outbound = createOutboundFetch({ policy: OPEN, resolver: noDns });
    expect(await reasonOf(outbound(`${main.url}/v1/models`))).toBe("private_address");
    expect(main.hits).toEqual([]);
  });

  it("reaches a listed host:port", async () => {
    const outbound = createOutboundFetch({ policy: allowMain(), resolver: noDns });
    const res = await outbound(`${main.url}/v1/models`);
    expect(await res.text()).toBe("ok");
  });

  it("does not follow a redirect from a listed server to 127.0.0.1 on another port", async () => {
    route = (_req, res) => {
      res.writeHead(302, { location: `${other.url}/latest/meta-data/` }).end();
    };
    const outbound = createOutboundFetch({ policy: allowMain(), resolver: noDns });
    expect(
      await reasonOf(
        outbound(`${main.url}/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: "Bearer sk-secret" },
          body: "{}",
        }),
      ),
    ).toBe("redirect_offsite");
    expect(other.hits).toEqual([]);
  });

  it("does not follow a redirect to another host even when that host is listed too", async () => {
    route = (_req, res) => res.writeHead(307, { location: `${other.url}/` }).end();
    const outbound = createOutboundFetch({
      policy: { requireHttps: false, allowHosts: ["127.0.0.1"] },
      resolver: noDns,
    });
    expect(await reasonOf(outbound(`${main.url}/`))).toBe("redirect_offsite");
    expect(other.hits).toEqual([]);
  });

  it("follows a few same-origin redirects, then stops", async () => {
    route = (req, res) => {
      const n = Number(req.url?.slice(1) || "0");
      if (n < 2) res.writeHead(302, { location: `/${n + 1}` }).end();
      else res.end(`landed ${n}`);
    };
    const outbound = createOutboundFetch({ policy: allowMain(), resolver: noDns });
    expect(await (await outbound(`${main.url}/0`)).text()).toBe("landed 2");

    main.hits.length = 0;
    route = (_req, res) => res.writeHead(302, { location: "/again" }).end();
    expect(await reasonOf(outbound(`${main.url}/loop`))).toBe("too_many_redirects");
    expect(main.hits).toHaveLength(4); // the request and maxRedirects (3) hops
  });

  it("cuts a response past maxBytes, whatever Content-Length says", async () => {
    route = (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("x".repeat(64 * 1024));
    };
    const outbound = createOutboundFetch({
      policy: allowMain(),
      resolver: noDns,
      maxBytes: 1024,
    });
    expect(await reasonOf(outbound(`${main.url}/big`).then((r) => r.text()))).toBe(
      "response_too_large",
    );

    route = (_req, res) => {
      res.writeHead(200); // chunked, no Content-Length
      res.write("x".repeat(600));
      res.end("x".repeat(600));
    };
    expect(await reasonOf(outbound(`${main.url}/chunked`).then((r) => r.text()))).toBe(
      "response_too_large",
    );
  });

  it("bounds the whole exchange in time", async () => {
    route = () => {}; // never answers
    const outbound = createOutboundFetch({ policy: allowMain(), resolver: noDns, timeoutMs: 200 });
    const started = Date.now();
    await expect(outbound(`${main.url}/slow`)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("refuses a name that resolves to a private address, unless the name is listed", async () => {
    const toLoopback: HostResolver = async () => ["93.184.216.34", "127.0.0.1"];
    const guarded = createOutboundFetch({ policy: OPEN, resolver: toLoopback });
    expect(await reasonOf(guarded("http://models.example.com/v1"))).toBe("dns_private");
    const calls: string[] = [];
    const listed = createOutboundFetch({
      policy: { requireHttps: false, allowHosts: ["models.example.com"] },
      resolver: toLoopback,
      fetch: async (input) => {
        calls.push(String(input));
        return new Response("ok");
      },
    });
    expect(await (await listed("http://models.example.com/v1")).text()).toBe("ok");
    expect(calls).toEqual(["http://models.example.com/v1"]);
  });
});

describe("createGuardedNodeFetch (DNS checked at connect time)", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer((_req, res) => res.end("internal"));
  });
  afterAll(() => server.close());

  // A name server that answers the policy's check with a public address and the socket's own
  // lookup with loopback (DNS rebinding); the OS lookup is replaced so no network is needed.
  const rebinding = (_host: string, _opts: unknown, cb: (e: null, a: LookupAddress[]) => void) =>
    cb(null, [{ address: "127.0.0.1", family: 4 }]);

  it("refuses to connect when the connect-time answer is private", async () => {
    const outbound = createOutboundFetch({
      policy: OPEN,
      resolver: publicResolver,
      fetch: createGuardedNodeFetch(OPEN, rebinding),
    });
    const url = `http://rebind.example.com:${server.port}/`;
    expect(await reasonOf(outbound(url))).toBe("dns_private");
    expect(server.hits).toEqual([]);
  });

  it("connects when the operator listed the name", async () => {
    const policy: OutboundPolicy = { requireHttps: false, allowHosts: ["rebind.example.com"] };
    const outbound = createOutboundFetch({
      policy,
      resolver: publicResolver,
      fetch: createGuardedNodeFetch(policy, rebinding),
    });
    const res = await outbound(`http://rebind.example.com:${server.port}/`);
    expect(await res.text()).toBe("internal");
  });
});
