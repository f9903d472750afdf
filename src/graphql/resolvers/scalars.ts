import { DateTimeResolver, JSONResolver } from 'graphql-scalars';

// DateTime accepts ISO 8601 with an offset and parses to a Date; we store ISO strings in UTC.
export const scalarResolvers = { DateTime: DateTimeResolver, JSON: JSONResolver };
