import type { Caller } from '../caller.js';

/** The caller as the service sees it: what the memory explorer shows and which controls it offers. */
export async function viewer(caller: Caller) {
  const named = caller.principal.readableNamespaces;
  return {
    name: caller.principal.name,
    readOnly: caller.principal.readOnly,
    allNamespaces: named === null,
    namespaces: named === null ? await caller.services.knowledge.namespaces() : [...named],
    defaultNamespace: caller.limits.defaultNamespace,
  };
}
