import { useEffect } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';

/** Shows errors the server sent for this step next to its inputs. */
export function useServerErrors<T extends FieldValues>(setError: UseFormSetError<T>, errors: Record<string, string> | undefined) {
  useEffect(() => {
    for (const [field, message] of Object.entries(errors ?? {})) setError(field as Path<T>, { type: 'server', message });
  }, [errors, setError]);
}
