import { lazy, StrictMode, Suspense, useMemo } from 'react';
import { createRoot } from 'react-dom/client';
import { MantineProvider, type CSSVariablesResolver } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { useTranslation } from 'react-i18next';
import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/spotlight/styles.css';
import './styles.css';
import { themeFor } from './app/theme';
import { queryClient } from './app/query-client';
import { needsSession, router } from './app/router';
import { startSession } from './lib/session';
import { trackActivity } from './lib/activity';
import { startI18n, useNumberFormat } from './lib/i18n';

// The idle time-out counts input on every page (spec §4 "Idle sign-out"); see lib/idle.
trackActivity();

const container = document.getElementById('root');
if (!container) throw new Error('#root missing in index.html');

/**
 * Dimmed text in gray 7 and error text (field errors, the required asterisk, an invalid input's
 * value) in red 9: Mantine's gray 6 and red 6 read at 3.3:1 on white, WCAG 2.2 AA asks 4.5:1
 * (red 9 reads at 5.4:1; issue 17 §4).
 */
const readableText: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)', '--mantine-color-error': 'var(--mantine-color-red-9)' },
  dark: {},
});

// The toasts' container comes after the first page (issue 18 §1); a toast shown before it is kept
// in @mantine/notifications' store and appears when the container mounts.
const Notifications = lazy(() => import('@mantine/notifications').then((module) => ({ default: module.Notifications })));

/** The providers. The date pickers set their language themselves (ui/date-field). */
function Root() {
  const { t } = useTranslation();
  const theme = useMemo(() => themeFor({ clear: t('Clear'), close: t('Close') }), [t]);
  // A new number format re-renders every page's amounts (a rare choice: the pages remount).
  const numberFormat = useNumberFormat();
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" forceColorScheme="light" cssVariablesResolver={readableText}>
      {/* Top centre: the pages' own actions (Edit, Send, Mark paid) sit top right, and a toast there covered them. */}
      <Suspense fallback={null}>
        <Notifications position="top-center" limit={4} />
      </Suspense>
      <QueryClientProvider client={queryClient}>
        <RouterProvider key={numberFormat} router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}

// The session (refresh, profile) starts with the page where the page needs one, beside the catalogs
// rather than after the first render (issue 18 §1); it applies the profile's language once i18n is up.
if (needsSession(window.location.pathname)) void startSession();
// The chosen language's catalogs load before the first render, so no page shows in English first.
void startI18n().then(() =>
  createRoot(container).render(
    <StrictMode>
      <Root />
    </StrictMode>,
  ),
);
