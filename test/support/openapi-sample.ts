/** An OpenAPI schema as the served JSON document gives it. */
export type Schema = Record<string, any>;

export interface SampleOptions {
  /** The text of a plain string field. */
  text: string;
  /** A value for `format: uuid`. */
  uuid: () => string;
  /**
   * Only an object's required fields (or, with none required, one plain field, as "send at
   * least one field" asks): an optional field with a pattern or a cross-check would stop the
   * request before the rule under test.
   */
  requiredOnly?: boolean;
}

/**
 * Plausible values for the schemas of one document, so that a request gets past body
 * validation (the fuzz test then makes one field hostile at a time; the route sweep sends it
 * as is). `resolve` follows `$ref`s into the document's components.
 */
export function openApiSampler(doc: Schema, options: SampleOptions) {
  function resolve(schema: Schema | undefined, depth = 0): Schema {
    if (!schema || depth > 20) return {};
    if (typeof schema.$ref === "string") {
      const name = schema.$ref.split("/").pop()!;
      return resolve(doc.components?.schemas?.[name], depth + 1);
    }
    return schema;
  }

  function sample(input: Schema | undefined, depth = 0): unknown {
    const schema = resolve(input);
    if (depth > 6) return null;
    if (schema.example !== undefined) return schema.example;
    if (schema.default !== undefined) return schema.default;
    if (schema.enum) return schema.enum[0];
    const variants = schema.anyOf ?? schema.oneOf ?? schema.allOf;
    if (variants) {
      return sample(
        variants.find((v: Schema) => resolve(v).type !== "null"),
        depth,
      );
    }
    const type = Array.isArray(schema.type)
      ? schema.type.find((t: string) => t !== "null")
      : schema.type;
    switch (type) {
      case "object":
        return sampleObject(schema, depth);
      case "array":
        return [sample(schema.items, depth + 1)];
      case "integer":
      case "number":
        return schema.minimum ?? 1;
      case "boolean":
        return false;
      case "string":
        return sampleString(schema.format);
      default:
        return options.text;
    }
  }

  function sampleString(format: string | undefined): string {
    if (format === "uuid") return options.uuid();
    if (format === "email") return `${options.text}@example.com`;
    if (format === "date-time") return "2030-01-01T00:00:00Z";
    if (format === "date") return "2030-01-01";
    if (format === "uri") return "https://example.com/";
    return options.text;
  }

  function sampleObject(schema: Schema, depth: number) {
    const out: Record<string, unknown> = {};
    const properties = Object.entries<Schema>(schema.properties ?? {});
    const wanted = options.requiredOnly ? new Set<string>(schema.required ?? []) : null;
    if (wanted && wanted.size === 0) {
      const plain = properties.find(([, value]) => isPlain(value));
      if (plain) wanted.add(plain[0]);
    }
    for (const [key, value] of properties) {
      if (!wanted || wanted.has(key)) out[key] = sample(value, depth + 1);
    }
    return out;
  }

  /** A field any sample value passes: a boolean, an enum, or a string with no format or pattern. */
  function isPlain(input: Schema): boolean {
    const schema = resolve(input);
    const variants: Schema[] = (schema.anyOf ?? schema.oneOf ?? [schema]).map((v: Schema) =>
      resolve(v),
    );
    const value = variants.find((v) => v.type !== "null") ?? {};
    if (value.enum || value.type === "boolean") return true;
    return value.type === "string" && !value.format && !value.pattern && !(value.minLength > 5);
  }

  return { resolve, sample };
}
