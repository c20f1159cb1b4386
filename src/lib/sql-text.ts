/** Escapes LIKE wildcards so a user's search text matches literally (default escape `\`). */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
