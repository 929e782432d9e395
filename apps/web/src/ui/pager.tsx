import { useTranslation } from 'react-i18next';
import { msg } from '../lib/i18n';
import { Group, Pagination, Text } from '@mantine/core';

const CONTROL_LABELS = { first: msg('first page'), previous: msg('previous page'), next: msg('next page'), last: msg('last page') } as const;

/**
 * Page links with 'rows a–b of n' for lists the server pages (`page` from 1, `pageSize` rows a
 * page). `capped`: the server stopped counting at `total` (db/paging.ts COUNT_CAP), so there are
 * more rows than that; the links reach that far and a narrower filter shows the rest.
 */
export function Pager({
  page,
  pageSize,
  total,
  capped = false,
  onChange,
}: {
  page: number;
  pageSize: number;
  total: number;
  capped?: boolean | undefined;
  onChange: (page: number) => void;
}) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">
        {capped ? t('{{from}}–{{to}} of more than {{total}}', { from, to, total }) : t('{{from}}–{{to}} of {{total}}', { from, to, total })}
      </Text>
      {pages > 1 ? (
        <Pagination
          value={page}
          onChange={onChange}
          total={pages}
          size="sm"
          aria-label={t('Pages')}
          getControlProps={(control) => ({ 'aria-label': t(CONTROL_LABELS[control]) })}
        />
      ) : null}
    </Group>
  );
}
