import { describe, expect, it } from "vitest";
import { maskEmails } from "../../src/lib/logger";

describe("maskEmails", () => {
  it("keeps an address's first character and its domain, nothing else of the mailbox", () => {
    expect(maskEmails("mail to buyer@corp.example failed")).toBe(
      "mail to b***@corp.example failed",
    );
    expect(maskEmails("two a@x.io and bb@y.io")).toBe("two a***@x.io and b***@y.io");
    expect(maskEmails("first.last+tag@ex-ample.co.uk)")).toBe("f***@ex-ample.co.uk)");
    expect(maskEmails("<x.y@sub.corp.example.>")).toBe("<x***@sub.corp.example.>");
    expect(maskEmails("..lead@a.b..c")).toBe("..l***@a.b..c");
  });

  it("leaves what is not an address as it is", () => {
    for (const text of ["no at here", "@corp.example", "user@localhost", "a@b", "", "@@@"]) {
      expect(maskEmails(text)).toBe(text);
    }
  });

  it("masks every address in a long run of address characters and @s", () => {
    // The shapes that made a regular expression over the local part quadratic: long runs of
    // its characters with and without an @ after them. Each still masks every address in it.
    const run = "a".repeat(20_000);
    expect(maskEmails(`${run}@corp.example`)).toBe("a***@corp.example");
    expect(maskEmails(`${run}@`)).toBe(`${run}@`);
    const many = "ab@x.io ".repeat(5_000);
    expect(maskEmails(many)).toBe("a***@x.io ".repeat(5_000));
  });
});
