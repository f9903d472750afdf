import { GraphQLError, Kind, type ASTNode, type FragmentDefinitionNode, type ValidationContext } from 'graphql';

/** Rejects operations nested deeper than `maxDepth` fields before they execute. */
export function depthLimitRule(maxDepth: number) {
  return (context: ValidationContext) => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of context.getDocument().definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);

    const depthOf = (node: ASTNode, depth: number, seen: Set<string>): number => {
      switch (node.kind) {
        case Kind.FIELD:
          if (node.name.value.startsWith('__')) return depth; // introspection is exempt
          return node.selectionSet ? Math.max(...node.selectionSet.selections.map((s) => depthOf(s, depth + 1, seen))) : depth;
        case Kind.INLINE_FRAGMENT:
          return Math.max(...node.selectionSet.selections.map((s) => depthOf(s, depth, seen)));
        case Kind.FRAGMENT_SPREAD: {
          const fragment = fragments.get(node.name.value);
          if (!fragment || seen.has(node.name.value)) return depth;
          return Math.max(...fragment.selectionSet.selections.map((s) => depthOf(s, depth, new Set([...seen, node.name.value]))));
        }
        default:
          return depth;
      }
    };

    return {
      OperationDefinition(operation: ASTNode) {
        if (operation.kind !== Kind.OPERATION_DEFINITION) return;
        const depth = Math.max(0, ...operation.selectionSet.selections.map((s) => depthOf(s, 1, new Set())));
        if (depth > maxDepth) {
          context.reportError(
            new GraphQLError(`query depth ${depth} exceeds the maximum of ${maxDepth} (MAX_QUERY_DEPTH)`, {
              nodes: [operation],
              extensions: { code: 'LIMIT_EXCEEDED' },
            }),
          );
        }
      },
    };
  };
}
