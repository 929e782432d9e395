import { useRef } from 'react';

/**
 * Wraps a mutation's `mutateAsync` so a call made while the previous one is still in flight is
 * dropped. The button shows `loading` (and is disabled) only once React Query has published
 * `isPending`, which it does on a zero timeout: a fast double click can land both clicks before that,
 * and would send the state change twice (issue 11 §1). Errors stay on the mutation's `error`.
 */
export function useSingleFlight<TVariables>(mutateAsync: (variables: TVariables) => Promise<unknown>): (variables: TVariables) => void {
  const inFlight = useRef(false);
  return (variables) => {
    if (inFlight.current) return;
    inFlight.current = true;
    mutateAsync(variables)
      .catch(() => undefined)
      .finally(() => {
        inFlight.current = false;
      });
  };
}
