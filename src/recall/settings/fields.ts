import { z } from 'zod/v3';

/**
 * The building blocks of the recall settings schema: every field declares its bounds, its
 * default and its unit (in the name or the description), and every refusal says what the field
 * accepts. Each stage declares its own section with these (src/recall/stages/); schema.ts
 * assembles the sections in the order the orchestrator runs the stages.
 */

interface Bounds {
  /** Inclusive lower bound. */
  min?: number;
  /** Exclusive lower bound. */
  above?: number;
  /** Inclusive upper bound. */
  max?: number;
  int?: boolean;
}

/** What a number within `b` is, in words: "in [0, 1]", "an integer in [1, 1000]", "> 0", … */
function expected(b: Bounds): string {
  if (b.int && b.min === 1 && b.max === undefined) return 'a positive integer';
  const range =
    b.min !== undefined && b.max !== undefined
      ? `in [${b.min}, ${b.max}]`
      : b.min !== undefined
        ? `>= ${b.min}`
        : b.above !== undefined
          ? `> ${b.above}`
          : 'a number';
  return b.int ? `an integer ${range}` : range;
}

/** A finite number within `b`; every refusal says what the field accepts. */
export function num(b: Bounds, accepts = expected(b)) {
  const message = `must be ${accepts}`;
  let n = z.number({ invalid_type_error: message, required_error: message }).finite({ message });
  if (b.int) n = n.int({ message });
  if (b.min !== undefined) n = n.min(b.min, { message });
  if (b.above !== undefined) n = n.gt(b.above, { message });
  if (b.max !== undefined) n = n.max(b.max, { message });
  return n;
}

export const fraction = () => num({ min: 0, max: 1 });
export const flag = () => z.boolean({ invalid_type_error: 'must be a boolean' });
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { errorMap: () => ({ message: `must be one of ${values.join(', ')}` }) });
/** A section of the settings: unknown keys are refused, omitted ones take their defaults. */
export const section = <T extends z.ZodRawShape>(shape: T) => z.object(shape, { invalid_type_error: 'must be an object' }).strict();
