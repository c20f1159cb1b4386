import { deflateSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { call, registerUser, type Session } from "../support/client";
import { createTestContext } from "../support/harness";
import { createCompany, orgIdOf } from "../support/orgs";

// Issue #23: the seller block of an organisation's documents (API.md "Trade documents",
// docs/quotations.md, ADR 0106).

const ctx = await createTestContext();
const { app, database } = ctx;
const PATH = "/api/v1/org/document-settings";

const write = (user: Session) => ({ token: user.accessToken, csrf: user.csrfToken });
const put = (user: Session, json: unknown) =>
  call(app, PATH, { ...write(user), method: "PUT", json });
const get = (user: Session) => call(app, PATH, { token: user.accessToken });

/** A CRC-32 of PNG chunks. */
function crc32(bytes: Buffer) {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Buffer) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A real RGB PNG of `width` x `height`; `noise` makes it incompressible (large). */
function png(width: number, height: number, noise = false): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const raw = Buffer.alloc((width * 3 + 1) * height);
  let seed = 7;
  for (let y = 0; y < height; y++) {
    raw[y * (width * 3 + 1)] = 0;
    for (let x = 0; x < width * 3; x++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      raw[y * (width * 3 + 1) + 1 + x] = noise ? seed >>> 24 : (x * 7 + y) & 0xff;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw, { level: noise ? 0 : 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A 2 x 2 baseline JPEG. */
/** A copy of a PNG with one byte of its first IDAT chunk's data flipped. */
function damaged(file: Buffer): Buffer {
  const copy = Buffer.from(file);
  copy[copy.indexOf("IDAT") + 6]! ^= 0xff;
  return copy;
}

const JPEG_BASE64 =
  "/9j/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAACAAIDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAf/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAABgj/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCdABykX//Z";

const FULL = {
  legal_name: "Ningbo Everbright Housewares Co., Ltd.",
  address: "No. 88 Jiangnan Road\nBeilun District, Ningbo 315800\nChina",
  phone: "+86 574 8888 0000",
  email: "sales@everbright.example",
  website: "https://everbright.example",
  bank_details: "Bank of China, Ningbo Branch\nSWIFT: BKCHCNBJ92A\nAccount: 3581 0000 1234",
  payment_terms: "30% deposit by T/T, 70% balance before shipment",
  validity_days: 30,
  footer: "Thank you for your business.",
};

async function auditRows(orgId: string) {
  return queryRows<{ action: string; actor_id: string; changes: unknown }>(
    database.db,
    sql`select action, actor_id, changes from admin_audit_log
        where target_type = 'org' and target_id = ${orgId} order by created_at`,
  );
}

describe("document settings", () => {
  it("are null until set; an admin sets them, every member reads them, the write is audited", async () => {
    const company = await createCompany(ctx);
    const before = await get(company.member);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ legal_name: null, logo: null, updated_at: null });

    const logo = png(40, 20).toString("base64");
    const set = await put(company.admin, { ...FULL, logo });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ ...FULL, logo, logo_type: "image/png" });
    expect(typeof set.body.updated_at).toBe("string");

    for (const reader of [company.member, company.manager, company.owner]) {
      const read = await get(reader);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ ...FULL, logo_type: "image/png" });
    }
    // Another organisation sees its own (empty) settings.
    expect((await get(company.outsider)).body.legal_name).toBeNull();

    // A field left out keeps its value; null clears one; "" clears one too.
    const partial = await put(company.owner, { footer: null, phone: "", validity_days: 45 });
    expect(partial.status, JSON.stringify(partial.body)).toBe(200);
    expect(partial.body).toMatchObject({
      legal_name: FULL.legal_name,
      footer: null,
      phone: null,
      validity_days: 45,
      logo,
    });

    const orgId = await orgIdOf(database, company.owner);
    const audit = await auditRows(orgId);
    expect(audit.map((a) => a.action)).toEqual([
      "org.document_settings.update",
      "org.document_settings.update",
    ]);
    expect(audit[0]!.actor_id).toBe(company.admin.userId);
    const changes = (
      typeof audit[0]!.changes === "string" ? JSON.parse(audit[0]!.changes) : audit[0]!.changes
    ) as Record<string, { before: unknown; after: unknown }>;
    // The logo is recorded as set, never as its bytes (before: no settings row at all).
    expect(changes.logo).toEqual({ before: null, after: "set" });
    const second = (
      typeof audit[1]!.changes === "string" ? JSON.parse(audit[1]!.changes) : audit[1]!.changes
    ) as Record<string, unknown>;
    expect(Object.keys(second).sort()).toEqual(["footer", "phone", "validity_days"]);
    expect(changes.legal_name).toEqual({ before: null, after: FULL.legal_name });
  });

  it("take a JPEG, with or without a data: prefix, and a null logo removes it", async () => {
    const owner = await registerUser(app);
    const jpeg = await put(owner, { logo: `data:image/jpeg;base64,${JPEG_BASE64}` });
    expect(jpeg.status, JSON.stringify(jpeg.body)).toBe(200);
    expect(jpeg.body).toMatchObject({ logo: JPEG_BASE64, logo_type: "image/jpeg" });
    const removed = await put(owner, { logo: null });
    expect(removed.body).toMatchObject({ logo: null, logo_type: null });
  });

  it("refuse a member, a manager and a cookie write without CSRF; write nothing", async () => {
    const company = await createCompany(ctx);
    for (const user of [company.member, company.manager]) {
      const refused = await put(user, { legal_name: "Hijack Ltd" });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe("forbidden");
    }
    const noCsrf = await call(app, PATH, {
      method: "PUT",
      cookies: { access_token: company.admin.accessToken },
      json: { legal_name: "Hijack Ltd" },
    });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.code).toBe("csrf_missing");
    expect((await get(company.owner)).body.legal_name).toBeNull();
    expect(await auditRows(await orgIdOf(database, company.owner))).toEqual([]);
  });

  it("refuse a logo that is not a PNG or JPEG (422) or over 512 KB (413), writing nothing", async () => {
    const owner = await registerUser(app);
    await put(owner, { legal_name: "Kept Ltd" });
    const cases: [unknown, number, string][] = [
      ["not base64 at all!", 422, "validation_failed"],
      [Buffer.from("GIF89a....").toString("base64"), 422, "validation_failed"],
      // A PNG signature over garbage: the magic bytes alone do not make an image.
      [
        Buffer.concat([png(2, 2).subarray(0, 8), Buffer.from("garbage garbage garbage")]).toString(
          "base64",
        ),
        422,
        "validation_failed",
      ],
      [Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x01]).toString("base64"), 422, "validation_failed"],
      // One byte of the image data changed: its chunk's checksum no longer matches.
      [damaged(png(4, 4)).toString("base64"), 422, "validation_failed"],
      // A PNG cut short before its end chunk.
      [png(4, 4).subarray(0, 40).toString("base64"), 422, "validation_failed"],
      ["", 422, "validation_failed"],
      [png(440, 400, true).toString("base64"), 413, "payload_too_large"],
    ];
    for (const [logo, status, code] of cases) {
      const res = await put(owner, { logo, legal_name: "Changed Ltd" });
      expect(res.status, `${String(logo).slice(0, 30)}: ${JSON.stringify(res.body)}`).toBe(status);
      expect(res.body.code).toBe(code);
      if (status === 422) expect(res.body.errors[0].loc).toEqual(["body", "logo"]);
    }
    const stored = await get(owner);
    expect(stored.body).toMatchObject({ legal_name: "Kept Ltd", logo: null });
  });

  it("validate the other fields (422 naming the field)", async () => {
    const owner = await registerUser(app);
    for (const [field, value] of [
      ["email", "not-an-email"],
      ["website", "ftp://example.com"],
      ["website", "https://user:pw@example.com"],
      ["validity_days", 0],
      ["validity_days", 1.5],
      ["legal_name", "x".repeat(201)],
      ["unknown_field", "x"],
    ] as const) {
      const res = await put(owner, { [field]: value });
      expect(res.status, `${field}=${value}`).toBe(422);
      expect(res.body.code).toBe("validation_failed");
    }
  });
});
