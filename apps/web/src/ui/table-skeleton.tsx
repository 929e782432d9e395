import { useTranslation } from 'react-i18next';
import { Skeleton, Stack } from '@mantine/core';

/** Placeholder rows while a table loads. */
export function TableSkeleton({ rows = 8 }: { rows?: number }) {
  const { t } = useTranslation();
  return (
    <Stack gap={6} aria-busy="true" aria-label={t('Loading')}>
      {Array.from({ length: rows }, (_, index) => (
        <Skeleton key={index} height={28} radius="sm" />
      ))}
    </Stack>
  );
}
