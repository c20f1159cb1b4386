import { execFile, spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { provideCjkFont } from "../../src/modules/quotations/pdf-font";
import { nodeCjkFont } from "../../src/runtime/node/cjk-font";
import { call, registerUser } from "../support/client";
import { createTestContext } from "../support/harness";

/**
 * The quotation PDF judged the way its reader sees it: drawn by poppler (pdftoppm) and MuPDF
 * (mutool draw), then read back from the pixels by tesseract. Text extraction alone cannot
 * catch a broken embedded font: the ToUnicode map still names every character while the
 * glyphs draw blank (the @pdf-lib/fontkit subset bug, docs/quotations.md).
 *
 * The readers are system packages (poppler-utils, mupdf-tools, tesseract-ocr with
 * tesseract-ocr-chi-sim). Without them the suite is skipped and says what is missing, so
 * `npm test` works with Node and npm alone; under CI (which installs them) it fails instead.
 */

const run = promisify(execFile);
const DPI = "200";

/** The reader binaries (and OCR languages) this machine lacks. */
function missingReaders(): string[] {
  const output = (command: string, args: string[]) => {
    const result = spawnSync(command, args, { encoding: "utf8" });
    return result.error ? undefined : `${result.stdout}${result.stderr}`;
  };
  const missing: string[] = [];
  if (output("pdftoppm", ["-v"]) === undefined) missing.push("pdftoppm (poppler-utils)");
  if (output("mutool", ["-v"]) === undefined) missing.push("mutool (mupdf-tools)");
  const languages = output("tesseract", ["--list-langs"]);
  if (languages === undefined) missing.push("tesseract (tesseract-ocr)");
  else {
    const listed = languages.split(/\s+/);
    if (!listed.includes("eng")) missing.push("tesseract language eng (tesseract-ocr-eng)");
    if (!listed.includes("chi_sim")) {
      missing.push("tesseract language chi_sim (tesseract-ocr-chi-sim)");
    }
  }
  return missing;
}

const missing = missingReaders();
const skip = missing.length > 0 && !process.env.CI;
if (skip) {
  console.warn(`quotation PDF render test skipped: missing ${missing.join(", ")}`);
}

// The app and its database are opened at the top level (the harness closes them after the
// file), and not at all when the suite is skipped.
const app = skip ? undefined : (await createTestContext()).app;

/** Words as tesseract prints them, without the spaces it puts between CJK characters. */
const squeeze = (text: string) => text.replace(/\s+/g, "");

async function ocr(png: string): Promise<string> {
  const { stdout } = await run("tesseract", [png, "stdout", "-l", "eng+chi_sim"], {
    maxBuffer: 4 * 1024 * 1024,
  });
  return stdout;
}

describe.skipIf(skip)(
  `quotation PDF as poppler and MuPDF draw it${skip ? ` (skipped: needs ${missing.join(", ")})` : ""}`,
  () => {
    let dir = "";

    beforeAll(async () => {
      if (missing.length > 0) {
        throw new Error(`CI must install the PDF readers; missing: ${missing.join(", ")}`);
      }
      provideCjkFont(nodeCjkFont);
      dir = await mkdtemp(join(tmpdir(), "quotation-pdf-"));
    });

    afterAll(async () => {
      provideCjkFont(undefined);
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it("shows the quote number, Latin and Chinese product names and the total", async () => {
      if (!app) throw new Error("no app");
      const user = await registerUser(app, { name: "Li Wei" });
      const created = await call(app, "/api/v1/quotations", {
        token: user.accessToken,
        json: {
          currency: "USD",
          shipping: 4999,
          items: [
            { name: "不锈钢保温杯", quantity: 1000, unit_price: 1299 },
            { name: "Bamboo lid", quantity: 3, unit_price: 250 },
          ],
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const q = created.body;
      // 1000 x 12.99 + 3 x 2.50 + 49.99 shipping.
      expect(q.total).toBe(1_304_749);
      const res = await app.request(`/api/v1/quotations/${q.id}/export?format=pdf`, {
        headers: { Authorization: `Bearer ${user.accessToken}` },
      });
      expect(res.status).toBe(200);
      const bytes = new Uint8Array(await res.arrayBuffer());
      // A subset, not the 10.5 MB font: the glyphs of this page only.
      expect(bytes.byteLength).toBeLessThan(50_000);
      const pdf = join(dir, `${q.quote_no}.pdf`);
      await writeFile(pdf, bytes);

      const [poppler, mupdf] = await Promise.all([
        run("pdftoppm", ["-r", DPI, "-gray", "-png", "-singlefile", pdf, join(dir, "poppler")]),
        run("mutool", ["draw", "-r", DPI, "-c", "gray", "-o", join(dir, "mupdf.png"), pdf]),
      ]);
      // MuPDF says so for every glyph whose outline it cannot read; poppler draws it blank.
      const glyphWarnings = mupdf.stderr
        .split("\n")
        .filter((line) => /cannot render glyph|invalid (outline|composite glyph)/.test(line));
      expect.soft(glyphWarnings.length, `MuPDF:\n${glyphWarnings.slice(0, 5).join("\n")}`).toBe(0);
      expect.soft(poppler.stderr).not.toMatch(/error/i);

      const expected = ["QUOTATION", q.quote_no, "Bamboolid", "不锈钢保温杯", "13,047.49"];
      const [popplerText, mupdfText] = await Promise.all([
        ocr(join(dir, "poppler.png")),
        ocr(join(dir, "mupdf.png")),
      ]);
      for (const [reader, text] of [
        ["poppler", popplerText],
        ["MuPDF", mupdfText],
      ] as const) {
        const seen = squeeze(text);
        // OCR is fuzzy (docs/quotations.md, the golden set): a Chinese name counts as read when
        // all but one of its characters are, in order; Latin words and figures must be exact.
        const read = (word: string) => {
          if (seen.includes(word)) return true;
          if (!/[\u4e00-\u9fff]/.test(word)) return false;
          const chars = [...word];
          return chars.some((_, skip) =>
            seen.includes(chars.filter((_, i) => i !== skip).join("")),
          );
        };
        expect
          .soft(
            expected.filter((word) => !read(word)),
            `missing from the ${reader} page as OCR read it:\n${text}`,
          )
          .toEqual([]);
      }
    }, 120_000);

    it("draws a 1,200-character word without a space cut into lines inside its column", async () => {
      if (!app) throw new Error("no app");
      const user = await registerUser(app);
      // The issue's reproduction: one word, no space, far wider than the product column.
      const word = "WATERPROOF".repeat(120);
      const created = await call(app, "/api/v1/quotations", {
        token: user.accessToken,
        json: {
          currency: "USD",
          items: [{ name: "Rain jacket", quantity: 2, unit_price: 1500, description: word }],
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const q = created.body;
      const res = await app.request(`/api/v1/quotations/${q.id}/export?format=pdf`, {
        headers: { Authorization: `Bearer ${user.accessToken}` },
      });
      expect(res.status).toBe(200);
      const pdf = join(dir, "long-word.pdf");
      await writeFile(pdf, new Uint8Array(await res.arrayBuffer()));
      await run("pdftoppm", [
        "-r",
        DPI,
        "-gray",
        "-png",
        "-f",
        "1",
        "-l",
        "1",
        "-singlefile",
        pdf,
        join(dir, "long-word"),
      ]);
      const text = await ocr(join(dir, "long-word.png"));
      const lines = text
        .split("\n")
        .map((line) => line.replace(/\s+/g, ""))
        .filter((line) => /WATER|PROOF/.test(line));
      // Cut into many lines, none holding the whole word, and the rest of the row still drawn
      // beside it: the quantity, the amount and the page's total.
      expect(lines.length, text).toBeGreaterThan(10);
      expect(Math.max(...lines.map((line) => line.length)), text).toBeLessThan(120);
      const seen = squeeze(text);
      for (const expected of [q.quote_no, "Rainjacket", "30.00"]) {
        expect.soft(seen, text).toContain(expected);
      }
    }, 120_000);
  },
);
