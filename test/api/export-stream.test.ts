import { sql } from "drizzle-orm";
import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { EXPORT_BATCH_ROWS } from "../../src/modules/imports/exports";
import { registerUser } from "../support/client";
import { createTestContext } from "../support/harness";

// The customer export reads the rows in keyset-paged batches and streams CSV as it reads: an
// export of more rows than one batch must still hold every row once, oldest first.

const { app, deps } = await createTestContext();

const ROWS = EXPORT_BATCH_ROWS * 2 + 37;

/**
 * ROWS customers for the user, with ids in i's order (the user's id with i in its last digits:
 * unique per user). Every ten share one created_at, so a batch boundary falls inside
 * a run of equal times and only the id orders them; inserted newest first, so the table's own
 * order is not the export's.
 */
async function seed(userId: string) {
  await deps.db.execute(
    sql`insert into customers (id, user_id, company, email, created_at, updated_at)
        select (left(${userId}, 24) || lpad(to_hex(i), 12, '0'))::uuid, ${userId}::uuid,
          'Company ' || i, 'buyer' || i || '@example.com',
          timestamptz '2026-01-01T00:00:00Z' + make_interval(secs => i / 10),
          timestamptz '2026-01-01T00:00:00Z'
        from generate_series(${ROWS}, 1, -1) as i`,
  );
}

const expected = Array.from({ length: ROWS }, (_, i) => `Company ${i + 1}`);

async function download(format: "csv" | "xlsx", token: string) {
  const res = await app.request(`/api/v1/customers/export?format=${format}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

describe("customer export past one batch", () => {
  it("streams every row of a CSV once, oldest first", async () => {
    const user = await registerUser(app);
    await seed(user.userId);
    // ignoreBOM keeps the BOM in the text (a decoder drops it by default).
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(
      await download("csv", user.accessToken),
    );
    expect(text.startsWith("\uFEFF")).toBe(true);
    expect(text.endsWith("\r\n")).toBe(true);
    const [header, ...lines] = text.slice(1, -2).split("\r\n");
    const company = header!.split(",").indexOf("company");
    expect(company).toBeGreaterThanOrEqual(0);
    expect(lines.map((line) => line.split(",")[company])).toEqual(expected);
  });

  it("writes every row of an .xlsx once, oldest first", async () => {
    const user = await registerUser(app);
    await seed(user.userId);
    const zip = await JSZip.loadAsync(await download("xlsx", user.accessToken));
    const sheet = await zip.file("xl/worksheets/sheet1.xml")!.async("string");
    // Column A is the company: an inline string per row after the header.
    const companies = [
      ...sheet.matchAll(
        /<c r="A(\d+)"[^>]*t="inlineStr"[^>]*><is><t[^>]*>([^<]*)<\/t><\/is><\/c>/g,
      ),
    ]
      .filter((m) => m[1] !== "1")
      .map((m) => m[2]);
    expect(companies).toEqual(expected);
  });
});
