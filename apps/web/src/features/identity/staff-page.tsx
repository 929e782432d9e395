import { useState } from 'react';
import { Badge, Button, Card, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { serverFieldErrors } from '../../lib/errors';
import { useCan, useSession } from '../../lib/session';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import { identityApi, roleLabels, roleNames, type RoleName } from './api';

const roleOptions = (t: TFunction, mayGrantOwner: boolean) =>
  roleNames.filter((role) => mayGrantOwner || role !== 'owner').map((role) => ({ value: role, label: t(roleLabels[role]) }));

function InviteForm({ mayGrantOwner }: { mayGrantOwner: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<RoleName>('accountant');
  const invite = useMutation({
    mutationFn: () => identityApi.invite(email.trim(), role),
    onSuccess: async (invitation) => {
      notifications.show({ color: 'green', message: t('{{email}} is invited as {{role}}.', { email: invitation.email, role: t(roleLabels[invitation.role]) }) });
      setEmail('');
      await queryClient.invalidateQueries({ queryKey: ['staff'] });
    },
  });
  const fields = serverFieldErrors(invite.error);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        invite.mutate();
      }}
    >
      <Stack gap="xs">
        <Group align="flex-end" gap="sm">
          <TextInput label={t('E-mail')} type="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} error={fields.email} w={300} required />
          <Select label={t('Role')} data={roleOptions(t, mayGrantOwner)} value={role} onChange={(value) => value && setRole(value as RoleName)} allowDeselect={false} w={180} />
          <Button type="submit" loading={invite.isPending} disabled={!email.trim()}>
            {t('Invite')}
          </Button>
        </Group>
        <Text size="xs" c="dimmed">
          {t('The invitation is accepted when this person next signs in with that e-mail, through any provider.')}
        </Text>
        {invite.error && !fields.email ? <ErrorAlert what={t('Could not invite')} error={invite.error} /> : null}
      </Stack>
    </form>
  );
}

/** Members, roles and invitations (issue #3 §4). Owners and admins manage; others read. */
export function StaffPage() {
  const { t } = useTranslation();
  const { profile } = useSession();
  const canAdmin = useCan('admin');
  const mayGrantOwner = profile?.role === 'owner';
  const queryClient = useQueryClient();
  const staff = useQuery({ queryKey: ['staff'], queryFn: identityApi.members });
  const done = () => queryClient.invalidateQueries({ queryKey: ['staff'] });
  const changeRole = useMutation({ mutationFn: ({ uuid, role }: { uuid: string; role: RoleName }) => identityApi.changeRole(uuid, role), onSuccess: done });
  const remove = useMutation({ mutationFn: identityApi.removeMember, onSuccess: done });
  const withdraw = useMutation({ mutationFn: identityApi.withdrawInvitation, onSuccess: done });
  const failure = changeRole.error ?? remove.error ?? withdraw.error;

  return (
    <Page title={t('Staff')}>
      {canAdmin ? (
        <Card withBorder padding="lg" radius="md">
          <Title order={2} size="h4" mb="sm">
            {t('Invite a person')}
          </Title>
          <InviteForm mayGrantOwner={mayGrantOwner} />
        </Card>
      ) : (
        <Text c="dimmed">{t('Only an owner or admin can invite people and change roles.')}</Text>
      )}
      {failure ? <ErrorAlert what={t('Could not change the staff')} error={failure} /> : null}
      {staff.isLoading ? <TableSkeleton rows={3} /> : null}
      {staff.error ? <ErrorAlert what={t('Could not load the staff')} error={staff.error} onRetry={() => void staff.refetch()} /> : null}
      {staff.data ? (
        <Table.ScrollContainer minWidth={640}>
          <Table striped verticalSpacing="xs" aria-label={t('Members')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Name')}</Table.Th>
                <Table.Th>{t('E-mail')}</Table.Th>
                <Table.Th>{t('Role')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {staff.data.data.map((member) => {
                const editable = canAdmin && !member.current && (mayGrantOwner || member.role !== 'owner');
                return (
                  <Table.Tr key={member.uuid}>
                    <Table.Td>
                      {`${member.firstName} ${member.lastName}`.trim() || '-'}{' '}
                      {member.current ? (
                        <Badge size="xs" variant="light">
                          {t('you')}
                        </Badge>
                      ) : null}
                    </Table.Td>
                    <Table.Td>{member.email}</Table.Td>
                    <Table.Td>
                      {editable ? (
                        <Select
                          aria-label={t('Role of {{email}}', { email: member.email })}
                          data={roleOptions(t, mayGrantOwner)}
                          value={member.role}
                          onChange={(value) => value && value !== member.role && changeRole.mutate({ uuid: member.uuid, role: value as RoleName })}
                          allowDeselect={false}
                          size="xs"
                          w={160}
                        />
                      ) : (
                        t(roleLabels[member.role])
                      )}
                    </Table.Td>
                    <Table.Td ta="right">
                      {editable ? (
                        <Button size="compact-xs" variant="subtle" color="red" onClick={() => remove.mutate(member.uuid)}>
                          {t('Remove')}
                        </Button>
                      ) : null}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
              {staff.data.invitations.map((invitation) => (
                <Table.Tr key={`invitation-${invitation.id}`}>
                  <Table.Td>
                    <Badge size="sm" color="yellow" variant="light">
                      {t('invited')}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{invitation.email}</Table.Td>
                  <Table.Td>{t(roleLabels[invitation.role])}</Table.Td>
                  <Table.Td ta="right">
                    {canAdmin ? (
                      <Button size="compact-xs" variant="subtle" color="red" onClick={() => withdraw.mutate(invitation.id)}>
                        {t('Withdraw')}
                      </Button>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
    </Page>
  );
}
