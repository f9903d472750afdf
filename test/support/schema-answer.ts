/**
 * What a model constrained by a JSON Schema (Ollama structured outputs) can answer: a value of
 * the schema's shape. `fill` supplies strings (and may override arrays) by path, e.g.
 * `facts[0].content`; anything it leaves out gets the first enum value or a neutral default.
 */
export type SchemaFill = (path: string, schema: Record<string, unknown>) => unknown;

export function answerBySchema(schema: unknown, fill: SchemaFill = () => undefined, path = ''): unknown {
  if (typeof schema !== 'object' || schema === null) return null;
  const s = schema as Record<string, unknown>;
  const given = fill(path, s);
  if (given !== undefined) return given;
  const type = Array.isArray(s.type) ? (s.type.find((t) => t !== 'null') ?? 'null') : s.type;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  switch (type) {
    case 'object': {
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      return Object.fromEntries(
        Object.entries(properties).map(([key, sub]) => [key, answerBySchema(sub, fill, path ? `${path}.${key}` : key)]),
      );
    }
    case 'array': {
      const items = Math.max(Number(s.minItems ?? 0), 1);
      return Array.from({ length: items }, (_, i) => answerBySchema(s.items, fill, `${path}[${i}]`));
    }
    case 'string':
      return '';
    case 'number':
    case 'integer':
      return typeof s.minimum === 'number' && typeof s.maximum === 'number' ? (s.minimum + s.maximum) / 2 : 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/** Whether `value` has the schema's shape: the check a constrained decoder makes true by construction. */
export function matchesSchema(schema: unknown, value: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return true;
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.enum) && !s.enum.includes(value)) return false;
  const types = Array.isArray(s.type) ? s.type : s.type === undefined ? [] : [s.type];
  if (types.length > 0 && !types.some((t) => hasType(t as string, value))) return false;
  if (
    typeof value === 'number' &&
    ((typeof s.minimum === 'number' && value < s.minimum) || (typeof s.maximum === 'number' && value > s.maximum))
  )
    return false;
  if (Array.isArray(value)) {
    if (typeof s.maxItems === 'number' && value.length > s.maxItems) return false;
    return value.every((item) => matchesSchema(s.items, item));
  }
  if (typeof value === 'object' && value !== null) {
    const properties = (s.properties ?? {}) as Record<string, unknown>;
    const required = Array.isArray(s.required) ? (s.required as string[]) : [];
    if (required.some((key) => !(key in value))) return false;
    return Object.entries(value).every(([key, v]) => matchesSchema(properties[key], v));
  }
  return true;
}

function hasType(type: string, value: unknown): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    default:
      return typeof value === type;
  }
}
