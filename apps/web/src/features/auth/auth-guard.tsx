import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet } from 'react-router';
import { paths } from '../../config/paths';
import { startSession, useSession } from '../../lib/session';
import { CenteredLoader } from '../../ui/centered-loader';

function useStartSession() {
  const session = useSession();
  useEffect(() => {
    if (session.status === 'unknown') void startSession();
  }, [session.status]);
  return session;
}

/** Wraps every non-login route (spec §2.1): a session with a finished onboarding, or away. */
export function AuthGuard() {
  const { t } = useTranslation();
  const session = useStartSession();
  switch (session.status) {
    case 'anonymous':
      return <Navigate to={paths.login.getHref()} replace />;
    case 'onboarding':
      return <Navigate to={paths.onboarding.getHref()} replace />;
    case 'ready':
      return <Outlet />;
    default:
      return <CenteredLoader label={t('Loading your workplace')} />;
  }
}

/** /onboarding needs a token but no finished onboarding. */
export function OnboardingGuard() {
  const { t } = useTranslation();
  const session = useStartSession();
  switch (session.status) {
    case 'anonymous':
      return <Navigate to={paths.login.getHref()} replace />;
    case 'ready':
      return <Navigate to={paths.home.getHref()} replace />;
    case 'onboarding':
      return <Outlet />;
    default:
      return <CenteredLoader label={t('Loading your workplace')} />;
  }
}
