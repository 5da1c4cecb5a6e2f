/**
 * JSON Schema (as the OpenAPI document holds it) to Markdown: a one-line type for a field, and a
 * field table for an object. Used by the docs/api.md generator (api-markdown.ts).
 */

export type Json = Record<string, any>;

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The component name a `$ref` names (`#/components/schemas/Account` → `Account`). */
export function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

/** Escapes a table cell: pipes and line breaks. */
export function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n+/g, ' ');
}

function bounds(schema: Json): string {
  const parts: string[] = [];
  if (schema.minimum !== undefined && schema.maximum !== undefined) parts.push(`${schema.minimum} to ${schema.maximum}`);
  else if (schema.minimum !== undefined) parts.push(`>= ${schema.minimum}`);
  else if (schema.maximum !== undefined) parts.push(`<= ${schema.maximum}`);
  if (schema.exclusiveMinimum !== undefined) parts.push(`> ${schema.exclusiveMinimum}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/** One-line Markdown type of a schema; named records link to their section under Records. */
export function typeOf(schema: Json | undefined): string {
  if (!schema) return 'any';
  if (typeof schema.$ref === 'string') {
    const name = refName(schema.$ref);
    return `[${name}](#${anchorOf(name)})`;
  }
  const branches = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (branches) {
    const notNull = branches.filter((b) => b.type !== 'null');
    const text = notNull.map(typeOf).join(' or ');
    return notNull.length < branches.length ? `${text} or null` : text;
  }
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((e: unknown) => `\`${String(e)}\``).join(', ')}`;
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : schema.type;
  switch (type) {
    case 'array':
      return `array of ${typeOf(schema.items)}`;
    case 'object':
      return 'object';
    case 'integer':
    case 'number':
      return `${type}${bounds(schema)}`;
    case 'string':
      if (schema.format === 'date-time') return 'timestamp';
      if (schema.pattern) return `string matching \`${schema.pattern}\``;
      return 'string';
    case 'null':
      return 'null';
    default:
      return type ?? 'any';
  }
}

/** Whether a schema allows null. */
export function nullable(schema: Json): boolean {
  const branches = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  return schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null')) || (branches?.some((b) => b.type === 'null') ?? false);
}

/** The description of a field: its own, or for a plain `$ref` a pointer to the record. */
function describe(schema: Json): string {
  if (typeof schema.description === 'string') return schema.description;
  if (typeof schema.$ref === 'string') return `See ${typeOf(schema)}.`;
  const branches = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  return branches?.map((b) => b.description).find((d) => typeof d === 'string') ?? '';
}

/** The object schema a field holds inline, if any (an object, or an array of objects, not a `$ref`). */
function inlineObject(schema: Json): Json | undefined {
  if (schema.type === 'object' && schema.properties) return schema;
  if (schema.type === 'array' && schema.items?.type === 'object' && schema.items.properties) return schema.items;
  return undefined;
}

/**
 * A field table of an object schema: name, type, description. Inline nested objects get their
 * own rows as `parent.child` (arrays as `parent[].child`); named records link to Records.
 */
export function fieldTable(schema: Json): string {
  const rows: string[] = ['| field | type | description |', '|---|---|---|'];
  const walk = (object: Json, prefix: string): void => {
    const required = new Set((object.required ?? []) as string[]);
    for (const [name, field] of Object.entries((object.properties ?? {}) as Record<string, Json>)) {
      const optional = required.has(name) ? '' : ' (optional)';
      rows.push(`| \`${prefix}${name}\` | ${cell(typeOf(field))}${optional} | ${cell(describe(field))} |`);
      const inner = inlineObject(field);
      if (inner) walk(inner, `${prefix}${name}${field.type === 'array' ? '[]' : ''}.`);
    }
  };
  walk(schema, '');
  return rows.join('\n');
}
