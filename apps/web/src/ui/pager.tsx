import { Group, Pagination, Text } from '@mantine/core';

/** Page links with 'rows a–b of n' for lists the server pages (`page` from 1, `pageSize` rows a page). */
export function Pager({ page, pageSize, total, onChange }: { page: number; pageSize: number; total: number; onChange: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">
        {from}–{to} of {total}
      </Text>
      {pages > 1 ? (
        <Pagination
          value={page}
          onChange={onChange}
          total={pages}
          size="sm"
          aria-label="Pages"
          getControlProps={(control) => ({ 'aria-label': `${control} page` })}
        />
      ) : null}
    </Group>
  );
}
