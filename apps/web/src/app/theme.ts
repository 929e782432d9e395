import { createTheme } from '@mantine/core';

/** Mantine defaults with one primary colour; calm and dense enough for accountants. */
export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'sm',
  cursorType: 'pointer',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '600' },
  components: {
    Table: { defaultProps: { verticalSpacing: 6, horizontalSpacing: 'sm' } },
    // Sentence case reads calmer than Mantine's upper-case badges ('Balanced').
    Badge: { defaultProps: { tt: 'none' } },
  },
});
