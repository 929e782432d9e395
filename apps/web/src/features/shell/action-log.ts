import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { api } from '../../lib/api';
import { useSession } from '../../lib/session';

/**
 * POST /napi/action-log/insert {url} on every route change (spec §2.10 "Page views are tracked").
 * Only with a session (the call needs one), so the first page after a reload is logged once the
 * session is there; a failure is only logged (spec §8).
 */
export function useActionLog(): void {
  const { pathname, search } = useLocation();
  const { status } = useSession();
  const hasSession = status === 'ready' || status === 'onboarding';
  useEffect(() => {
    if (!hasSession) return;
    api.post('/napi/action-log/insert', { url: pathname + search }).catch((error: unknown) => {
      console.warn('page view not recorded', error);
    });
  }, [pathname, search, hasSession]);
}
