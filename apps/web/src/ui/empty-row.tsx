import { Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** The one row of an empty table body: a dimmed sentence across all `columns`. */
export function EmptyRow({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Td colSpan={columns}>
        <Text c="dimmed">{children}</Text>
      </Table.Td>
    </Table.Tr>
  );
}
