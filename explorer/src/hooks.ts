import { useEffect, useState } from 'preact/hooks';
import { ApiError, gql } from './api';

export interface QueryState<T> {
  data: T | null;
  error: ApiError | null;
  loading: boolean;
}

/** Runs one GraphQL query whenever `deps` change; a stale answer never overwrites a newer one. */
export function useQuery<T>(
  key: string,
  query: string | null,
  variables: Record<string, unknown>,
  deps: unknown[],
): QueryState<T> & { reload: () => void } {
  const [state, setState] = useState<QueryState<T>>({ data: null, error: null, loading: query !== null });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (query === null) {
      setState({ data: null, error: null, loading: false });
      return;
    }
    let current = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    gql<T>(key, query, variables).then(
      (data) => current && setState({ data, error: null, loading: false }),
      (error: unknown) =>
        current &&
        setState({ data: null, error: error instanceof ApiError ? error : new ApiError('ERROR', 'the request failed'), loading: false }),
    );
    return () => {
      current = false;
    };
  }, [key, query, tick, ...deps]);
  return { ...state, reload: () => setTick((t) => t + 1) };
}
