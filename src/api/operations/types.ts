/** A request as a service takes it, with the namespace the caller names (resolved by the operation). */
export type Addressed<T extends { namespace: string }> = Omit<T, 'namespace'> & { namespace?: string | null };
