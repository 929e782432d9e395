import { useEffect, useState, type ReactNode } from 'react';
import { Anchor, Badge, Button, Card, Code, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { serverFieldErrors } from '../../lib/errors';
import { loadProfile, signIn, useSession, type Profile } from '../../lib/session';
import { announceInstanceSwitch } from '../../lib/session-channel';
import { storageKeys, writeJson, writeText } from '../../lib/storage';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { identityApi } from './api';
import { MailSyncSection } from './mail-sync-section';
import { PasskeySection } from './passkey-section';
import { PreferencesSection } from './preferences-section';
import { TwoFactorSection } from './two-factor-section';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={title}>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

function PersonalInformation({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const [firstName, setFirstName] = useState(profile.firstName);
  const [lastName, setLastName] = useState(profile.lastName);
  const save = useMutation({
    mutationFn: () => identityApi.updateProfile(firstName.trim(), lastName.trim()),
    onSuccess: async () => {
      notifications.show({ color: 'green', message: t('Your name was saved.') });
      await loadProfile();
    },
  });
  const fields = serverFieldErrors(save.error);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <Stack gap="sm" maw={520}>
        <Group grow align="flex-start">
          <TextInput label={t('First name')} value={firstName} maxLength={100} onChange={(e) => setFirstName(e.currentTarget.value)} error={fields.firstName} />
          <TextInput label={t('Last name')} value={lastName} maxLength={100} onChange={(e) => setLastName(e.currentTarget.value)} error={fields.lastName} />
        </Group>
        <Text size="sm" c="dimmed">
          {t('E-mail: {{email}}', { email: profile.email })}
        </Text>
        {save.error && !Object.keys(fields).length ? <ErrorAlert what={t('Could not save your name')} error={save.error} /> : null}
        <Group>
          <Button type="submit" loading={save.isPending} disabled={firstName === profile.firstName && lastName === profile.lastName}>
            {t('Save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Instance name with its uuid; 'CHANGE INSTANCE' turns into a select sorted by name (spec §2.6, §4). */
function InstanceSection({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const [choosing, setChoosing] = useState(false);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const instances = useQuery({ queryKey: ['profile', 'instances'], queryFn: identityApi.instances, enabled: choosing });
  const change = useMutation({
    mutationFn: (uuid: string) => identityApi.changeInstance(uuid),
    onSuccess: async (result, uuid) => {
      // Spec §4: the new profile, permissions and locale are stored, then home and a reload of the instance data.
      writeJson(storageKeys.permissions, result.permissions);
      writeText(storageKeys.locale, result.locale);
      if (result.profile) writeJson(storageKeys.profile, result.profile);
      queryClient.clear();
      await signIn(result.token);
      // Every other open tab reloads into the new instance (issue #3 §4).
      announceInstanceSwitch(uuid);
      await navigate(paths.home.getHref(), { replace: true });
    },
  });
  const options = [...(instances.data?.data ?? [])]
    .sort((a, b) => a.name.localeCompare(b.name, 'de-CH', { sensitivity: 'base' }))
    .map((row) => ({ value: row.uuid, label: `${row.name} (${row.role})` }));

  return (
    <Stack gap="xs">
      <Text fw={600}>{profile.instance.name}</Text>
      <Text size="sm" c="dimmed">
        {`uuid `}
        <Code>{profile.instance.uuid}</Code>
        {` · `}
        {t('your role: {{role}}', { role: profile.role })}
      </Text>
      <Group gap="sm" align="flex-end">
        {choosing ? (
          <Select
            label={t('Instance')}
            placeholder={instances.isLoading ? t('Loading…') : t('Choose an instance')}
            data={options}
            value={profile.instance.uuid}
            onChange={(value) => value && value !== profile.instance.uuid && change.mutate(value)}
            disabled={change.isPending}
            allowDeselect={false}
            w={320}
            comboboxProps={{ withinPortal: true }}
          />
        ) : (
          <Button variant="default" onClick={() => setChoosing(true)}>
            {t('CHANGE INSTANCE')}
          </Button>
        )}
        <Button component={Link} to={paths.staff.getHref()} variant="subtle">
          {t('Staff and roles')}
        </Button>
      </Group>
      {instances.error ? <ErrorAlert what={t('Could not load your instances')} error={instances.error} /> : null}
      {change.error ? <ErrorAlert what={t('Could not switch instance')} error={change.error} /> : null}
    </Stack>
  );
}

function describeAgent(t: TFunction, agent: string | null): string {
  if (!agent) return t('Unknown device');
  const browser = /Edg\//.test(agent) ? 'Edge' : /Firefox\//.test(agent) ? 'Firefox' : /Chrom(e|ium)\//.test(agent) ? 'Chrome' : /Safari\//.test(agent) ? 'Safari' : t('Browser');
  const system = /Windows/.test(agent) ? 'Windows' : /Mac OS X/.test(agent) ? 'macOS' : /Android/.test(agent) ? 'Android' : /iPhone|iPad/.test(agent) ? 'iOS' : /Linux/.test(agent) ? 'Linux' : '';
  return system ? t('{{browser}} on {{system}}', { browser, system }) : browser;
}

const dateTime = (value: string) => new Date(value).toLocaleString('de-CH', { dateStyle: 'short', timeStyle: 'short' });

/** The user's sessions with 'Sign out everywhere' (issue #3 §3). */
function SessionsSection() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const sessions = useQuery({ queryKey: ['profile', 'sessions'], queryFn: identityApi.sessions });
  const revoke = useMutation({
    mutationFn: identityApi.revokeSession,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['profile', 'sessions'] }),
  });
  const revokeAll = useMutation({
    mutationFn: identityApi.revokeAllSessions,
    onSuccess: () => navigate(paths.logout.getHref()),
  });
  if (sessions.isLoading) return <Text c="dimmed">{t('Loading…')}</Text>;
  if (sessions.error) return <ErrorAlert what={t('Could not load your sessions')} error={sessions.error} onRetry={() => void sessions.refetch()} />;
  return (
    <Stack gap="sm">
      <Table.ScrollContainer minWidth={560}>
        <Table striped verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Device')}</Table.Th>
              <Table.Th>{t('Instance')}</Table.Th>
              <Table.Th>{t('Signed in')}</Table.Th>
              <Table.Th>{t('Last active')}</Table.Th>
              <Table.Th>IP</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(sessions.data?.data ?? []).map((session) => (
              <Table.Tr key={session.id}>
                <Table.Td>
                  {describeAgent(t, session.userAgent)}{' '}
                  {session.current ? (
                    <Badge size="xs" variant="light">
                      {t('this session')}
                    </Badge>
                  ) : null}
                </Table.Td>
                <Table.Td>{session.instance.name}</Table.Td>
                <Table.Td>{dateTime(session.startedAt)}</Table.Td>
                <Table.Td>{dateTime(session.lastSeenAt)}</Table.Td>
                <Table.Td>{session.ip ?? '-'}</Table.Td>
                <Table.Td ta="right">
                  {session.current ? null : (
                    <Button size="compact-xs" variant="subtle" color="red" onClick={() => revoke.mutate(session.id)} loading={revoke.isPending && revoke.variables === session.id}>
                      {t('Sign out')}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {revoke.error || revokeAll.error ? <ErrorAlert what={t('Could not sign out')} error={revoke.error ?? revokeAll.error} /> : null}
      <Group>
        <Button color="red" variant="light" onClick={() => revokeAll.mutate()} loading={revokeAll.isPending}>
          {t('Sign out everywhere')}
        </Button>
      </Group>
    </Stack>
  );
}

export function ProfilePage() {
  const { t } = useTranslation();
  const { profile } = useSession();
  useEffect(() => {
    void loadProfile();
  }, []);
  if (!profile) return null;
  return (
    <Page title={t('Profile')}>
      <Section title={t('Personal Information')}>
        <PersonalInformation profile={profile} />
      </Section>
      <Section title={t('Language and Formats')}>
        <PreferencesSection key={`${profile.language}/${profile.numberFormat}`} profile={profile} />
      </Section>
      <Section title={t('Instance')}>
        <InstanceSection key={profile.instance.uuid} profile={profile} />
      </Section>
      <Section title={t('Two-Factor Authentication')}>
        <TwoFactorSection />
      </Section>
      <Section title={t('Webauthn')}>
        <PasskeySection />
      </Section>
      <Section title={t('Sessions')}>
        <SessionsSection />
      </Section>
      <Section title={t('Mail Sync')}>
        <MailSyncSection />
      </Section>
      {profile.isSuperadmin ? (
        <Section title={t('Superadmin')}>
          <Group gap="lg">
            <Anchor component={Link} to={paths.superadmin.getHref()}>
              {t('Superadmin')}
            </Anchor>
            <Anchor component={Link} to={paths.logs.getHref()}>
              {t('Logs')}
            </Anchor>
            <Anchor component={Link} to={paths.analytics.getHref()}>
              {t('Analytics')}
            </Anchor>
          </Group>
        </Section>
      ) : null}
    </Page>
  );
}
