import { z } from "@hono/zod-openapi";

/**
 * An http(s) URL with a host and no user or password in it (a provider's key goes in its own
 * write-only field, never in a URL that is shown back).
 */
export const httpUrlWithoutCredentials = (max: number, error: string) =>
  z
    .string()
    .trim()
    .max(max)
    .refine(
      (value) => {
        try {
          const url = new URL(value);
          return (
            (url.protocol === "http:" || url.protocol === "https:") &&
            url.hostname !== "" &&
            url.username === "" &&
            url.password === ""
          );
        } catch {
          return false;
        }
      },
      { error },
    );
