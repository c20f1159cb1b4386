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
    // Saved a while ago: a file saved in the build's first millisecond counts as edited during it.
    const before = new Date(Date.now() - 60_000);
    for (const file of ["package.json", "src/main.ts", "src/word.ts"]) {
      await utimes(join(root, file), before, before);
    }
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

  it("rebuilds when the bundle on disk is not the one its manifest describes", async () => {
    const first = await ensure(options());
    // As when two builds of different sources rename their files at once.
    await writeFile(first.path, 'console.log("another build");\n');
    const second = await ensure(options());
    expect(second.built).toBe(true);
    expect(run(first.path).trim()).toBe("first");
  });

  it("writes no manifest when a source was saved during the build, so the next start builds", async () => {
    // A modification time at or after the build's start: saved while esbuild may have read it.
    const during = new Date(Date.now() + 60_000);
    await utimes(join(root, "src/word.ts"), during, during);
    expect((await ensure(options())).built).toBe(true);
    expect((await ensure(options())).built).toBe(true);
  });

  it("rebuilds when the bundle itself is gone", async () => {
    const first = await ensure(options());
    await rm(first.path);
    expect((await ensure(options())).built).toBe(true);
    expect(run(first.path).trim()).toBe("first");
  });
});
