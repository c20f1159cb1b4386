import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ensureStartBundle as ensure } from "../../scripts/start-bundle.mjs";

/** `npm start` runs a bundle of the server; an edited source must never run the old code. */
describe("start bundle", () => {
  let root: string;
  const options = () => ({ root, entry: "src/main.ts", bundle: "out/a/server.mjs" });
  const run = (path: string) => spawnSync(process.execPath, [path], { encoding: "utf8" }).stdout;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "start-bundle-"));
    await writeFile(join(root, "package.json"), '{"type":"module"}');
    await mkdir(join(root, "src"));
    await writeFile(
      join(root, "src/main.ts"),
      'import { word } from "./word";\nconsole.log(word);\n',
    );
    await writeFile(join(root, "src/word.ts"), 'export const word: string = "first";\n');
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("builds once, reuses the bundle while the sources are unchanged", async () => {
    const first = await ensure(options());
    expect(first.built).toBe(true);
    expect(run(first.path).trim()).toBe("first");
    const second = await ensure(options());
    expect(second).toEqual({ path: first.path, built: false });
  });

  it("rebuilds when an imported source changes, even to the same size", async () => {
    const first = await ensure(options());
    await writeFile(join(root, "src/word.ts"), 'export const word: string = "other";\n');
    // Same size as before: the modification time alone has to tell.
    const later = new Date(Date.now() + 5_000);
    await utimes(join(root, "src/word.ts"), later, later);
    const second = await ensure(options());
    expect(second.built).toBe(true);
    expect(run(first.path).trim()).toBe("other");
  });

  it("rebuilds when the bundle itself is gone", async () => {
    const first = await ensure(options());
    await rm(first.path);
    expect((await ensure(options())).built).toBe(true);
    expect(run(first.path).trim()).toBe("first");
  });
});
