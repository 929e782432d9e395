import { Group, Pagination, Text } from '@mantine/core';

export const PAGE_SIZE = 50;

/** Page links with 'rows a–b of n'. */
export function Pager({ page, total, onChange }: { page: number; total: number; onChange: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const from = total === 0 ? 0 : (page - 1) * PAGE_SIZE + 1;
  const to = Math.min(total, page * PAGE_SIZE);
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">
        {from}–{to} of {total}
      </Text>
      {pages > 1 ? <Pagination value={page} onChange={onChange} total={pages} size="sm" /> : null}
    </Group>
  );
}
