import { Anchor, Group, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { uidRegisterLink } from './labels';
import { useTranslation } from 'react-i18next';

/** A Swiss UID linked to its entry in the federal UID register (spec §2.7); '-' when none. */
export function UidLink({ uid }: { uid: string | null }) {
  const { t } = useTranslation();
  if (!uid) return <Text size="sm">-</Text>;
  const href = uidRegisterLink(uid);
  if (!href) return <Text size="sm">{uid}</Text>;
  return (
    <Anchor href={href} target="_blank" rel="noopener noreferrer" size="sm">
      <Group gap={4} wrap="nowrap" component="span">
        {uid}
        <IconExternalLink size={14} aria-label={t('opens the UID register')} />
      </Group>
    </Anchor>
  );
}
