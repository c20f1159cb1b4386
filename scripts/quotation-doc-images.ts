/**
 * The rendered pages docs/quotations.md shows (docs/img/quotation-*.png): a quotation's first
 * page, a continuation page and a proforma invoice, from the golden set
 * (test/documents/golden-set.ts), drawn by poppler's pdftoppm at 60 dpi.
 *
 *   npx tsx scripts/quotation-doc-images.ts
 *
 * Needs pdftoppm (poppler-utils). Run it again after a layout change and commit the PNGs.
 */
import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { renderQuotationPdf } from "../src/modules/quotations/pdf";
import { nodeCjkFont } from "../src/runtime/node/cjk-font";
import { GOLDEN } from "../test/documents/golden-set";

const PAGES: { golden: string; page: number; out: string }[] = [
  { golden: "12-revision-all-terms", page: 1, out: "quotation-page-1.png" },
  { golden: "03-120-lines-200-char-names", page: 2, out: "quotation-continuation.png" },
  { golden: "11-proforma", page: 1, out: "proforma-invoice.png" },
];

const run = promisify(execFile);
const outDir = join(import.meta.dirname, "..", "docs", "img");
mkdirSync(outDir, { recursive: true });
const work = mkdtempSync(join(tmpdir(), "quotation-doc-images-"));
try {
  const font = await nodeCjkFont();
  for (const { golden, page, out } of PAGES) {
    const { doc } = GOLDEN.find((g) => g.name === golden)!;
    const pdf = join(work, `${golden}.pdf`);
    writeFileSync(pdf, await renderQuotationPdf(doc, font));
    const stem = join(work, out.replace(/\.png$/, ""));
    await run("pdftoppm", [
      "-r",
      "60",
      "-png",
      "-f",
      String(page),
      "-l",
      String(page),
      "-singlefile",
      pdf,
      stem,
    ]);
    copyFileSync(`${stem}.png`, join(outDir, out));
    console.log(`docs/img/${out}: ${golden}, page ${page}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
