import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { CjkFontSource } from "../../modules/quotations/pdf-font";

/** Noto Sans SC Regular (TrueType outlines, SIL OFL) as shipped by its npm package. */
const NOTO_SANS_SC_TTF = "@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf";

/** Node's source for the PDF export's CJK font: the package's file, read from node_modules. */
export const nodeCjkFont: CjkFontSource = async () => {
  const path = createRequire(import.meta.url).resolve(NOTO_SANS_SC_TTF);
  return new Uint8Array(await readFile(path));
};
