/** DateTime arguments arrive as Date (graphql-scalars); queries compare ISO strings in UTC. */
export function iso(value: unknown): string | null {
  if (value == null) return null;
  return value instanceof Date ? value.toISOString() : String(value);
}
