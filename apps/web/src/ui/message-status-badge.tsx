import { Badge, Text, Tooltip } from '@mantine/core';

type Status = 'queued' | 'sending' | 'sent' | 'failed' | 'not_sent';

const LABEL: Record<Status, string> = {
  queued: 'queued',
  sending: 'sending',
  sent: 'sent',
  failed: 'failed',
  not_sent: 'not sent — no mail server configured',
};
const COLOR: Record<Status, string> = { queued: 'blue', sending: 'blue', sent: 'green', failed: 'red', not_sent: 'gray' };

/** The status of a stored e-mail (issue 15 §1), with the mail server's answer as its tooltip. */
export function MessageStatusBadge({ status, serverResponse }: { status: Status; serverResponse?: string | null }) {
  // The long 'not sent' label as text: a badge would cut it short.
  if (status === 'not_sent') {
    return (
      <Text size="sm" c="dimmed" fw={500}>
        {LABEL[status]}
      </Text>
    );
  }
  const badge = (
    <Badge color={COLOR[status]} variant="light" tt="none">
      {LABEL[status]}
    </Badge>
  );
  return serverResponse ? (
    <Tooltip label={serverResponse} multiline maw={420}>
      {badge}
    </Tooltip>
  ) : (
    badge
  );
}
