import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { GraphQLError, Kind, visit, type DocumentNode } from 'graphql';

/**
 * Every string a request carries (variables, JSON keys and values included, and literals in the
 * document) must be well-formed text: a lone surrogate is not Unicode (the driver would store it
 * as U+FFFD, so what is stored is not what was sent, and its hash differs), and C0 control
 * characters other than tab, line feed and carriage return (and DEL) are refused rather than stored,
 * indexed and embedded. Checked once per request before any resolver runs, so nothing is half-written.
 */
// No quantifier: linear in the input.
const UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function unsafeIn(value: unknown, path: string): string | null {
  if (typeof value === 'string') return UNSAFE.test(value) ? path : null;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = unsafeIn(item, `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (UNSAFE.test(key)) return `${path} (a key)`;
      const found = unsafeIn(item, `${path}.${key.slice(0, 40)}`);
      if (found) return found;
    }
  }
  return null;
}

function unsafeLiteral(document: DocumentNode): string | null {
  let found: string | null = null;
  visit(document, {
    [Kind.STRING](node) {
      if (!found && UNSAFE.test(node.value)) found = `a string literal at line ${node.loc?.startToken.line ?? '?'}`;
    },
    [Kind.OBJECT_FIELD](node) {
      if (!found && UNSAFE.test(node.name.value)) found = 'an object field name';
    },
  });
  return found;
}

/** Where the first unsafe string of a request is (never its value), or null. */
export function unsafeStringInput(document: DocumentNode, variables: Record<string, unknown> = {}): string | null {
  for (const [name, value] of Object.entries(variables)) {
    const found = unsafeIn(value, `$${name}`);
    if (found) return found;
  }
  return unsafeLiteral(document);
}

export function stringInputsPlugin<TContext extends BaseContext>(): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, request }) {
          const where = unsafeStringInput(document, request.variables ?? {});
          if (where) {
            throw new GraphQLError(`${where} holds a lone surrogate or a control character (only tab, line feed and carriage return are allowed); send well-formed text`, {
              extensions: { code: 'BAD_USER_INPUT', details: { field: where }, http: { status: 400 } },
            });
          }
        },
      };
    },
  };
}
