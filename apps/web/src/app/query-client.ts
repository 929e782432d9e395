import { QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from '../lib/errors';
import { endSession, refreshAccessToken } from '../lib/session';

/**
 * A 401 on a data call means the access token expired between refreshes (sleep, throttled tab):
 * refresh once and refetch; if the refresh fails the session ends and the guard goes to /login.
 */
export const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (error) => {
      if (!isApiError(error, 401)) return;
      void refreshAccessToken().then((ok) => {
        if (ok) void queryClient.invalidateQueries();
        else endSession();
      });
    },
  }),
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: (failureCount, error) => !isApiError(error) && failureCount < 2,
    },
    mutations: { retry: false },
  },
});
