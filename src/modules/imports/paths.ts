/** The upload routes: they take a 10 MB body, past the app-wide body limit. */
export const IMPORT_PATHS = [
  "/api/v1/customers/import",
  "/api/v1/products/import",
  "/api/v1/glossary/import",
] as const;
