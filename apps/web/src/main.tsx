import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { installZodMessages } from '@bilan/domain';
import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/spotlight/styles.css';
import './styles.css';
import { theme } from './app/theme';
import { queryClient } from './app/query-client';
import { router } from './app/router';
import { trackActivity } from './lib/activity';

// zod's built-in messages become the spec's ('This field is required', 'expected type …').
installZodMessages();

// The idle time-out counts input on every page (spec §4 "Idle sign-out"); see lib/idle.
trackActivity();

const container = document.getElementById('root');
if (!container) throw new Error('#root missing in index.html');

createRoot(container).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="light" forceColorScheme="light">
      <DatesProvider settings={{ locale: 'en', firstDayOfWeek: 1 }}>
        {/* Top centre: the pages' own actions (Edit, Send, Mark paid) sit top right, and a toast there covered them. */}
        <Notifications position="top-center" limit={4} />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </DatesProvider>
    </MantineProvider>
  </StrictMode>,
);
