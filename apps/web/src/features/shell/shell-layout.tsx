import { ActionIcon, Anchor, AppShell, Group, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconChevronDown, IconLifebuoy, IconLogout, IconSearch, IconSettings, IconUser } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { VERSION } from '@bilan/domain';
import { paths } from '../../config/paths';
import { api } from '../../lib/api';
import { msg } from '../../lib/i18n';
import { getSession, reloadIntoInstance, useSession } from '../../lib/session';
import { startIdleWatch } from '../../lib/idle';
import { watchInstanceSwitch } from '../../lib/session-channel';
import { NavMenu } from './nav-menu';
import { CommandPalette } from './command-palette';
import { paletteActions } from './palette-store';

const topIcons = [
  { label: msg('Support'), href: paths.support.getHref(), icon: IconLifebuoy },
  { label: msg('Profile'), href: paths.profile.getHref(), icon: IconUser },
  { label: msg('Settings'), href: paths.settings.getHref(), icon: IconSettings },
  { label: msg('Logout'), href: paths.logout.getHref(), icon: IconLogout },
];

function useVersion(): string {
  const { data } = useQuery({
    queryKey: ['meta', 'version'],
    queryFn: () => api.get('/api/meta/version'),
    staleTime: Infinity,
  });
  return data?.version ?? VERSION;
}

/** The authenticated shell (spec §2.3): top bar, menu, page, footer. */
export function ShellLayout() {
  const { t } = useTranslation();
  const { profile } = useSession();
  const isMobile = useMediaQuery('(max-width: 48em)') ?? false;
  // One toggle for both widths: on a phone the menu starts closed, on a desktop open.
  const [mobileOpened, mobile] = useDisclosure(false);
  const [desktopOpened, desktop] = useDisclosure(true);
  const menuOpened = isMobile ? mobileOpened : desktopOpened;
  const toggle = isMobile ? mobile.toggle : desktop.toggle;
  const version = useVersion();
  const instanceName = profile?.instance.name ?? 'Bilan';
  // Idle sign-out across tabs (spec §4); the guard then sends the user to /login.
  useEffect(() => startIdleWatch(() => undefined), []);
  // An instance switch in another tab moves this session too: reload into the new instance
  // instead of showing the old one's data (the tab that switched already shows the new one).
  useEffect(
    () =>
      watchInstanceSwitch((uuid) => {
        if (getSession().profile?.instance.uuid !== uuid) reloadIntoInstance();
      }),
    [],
  );

  return (
    <AppShell
      header={{ height: 52 }}
      footer={{ height: 36 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !mobileOpened, desktop: !desktopOpened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <UnstyledButton
            onClick={toggle}
            aria-expanded={menuOpened}
            aria-controls="main-menu"
            aria-label={menuOpened ? t('{{name}}, hide menu', { name: instanceName }) : t('{{name}}, show menu', { name: instanceName })}
          >
            <Group gap={6} wrap="nowrap">
              <img src="/favicon.svg" alt="" width={24} height={24} />
              <Text fw={600} truncate maw={isMobile ? 150 : 400}>
                {instanceName}
              </Text>
              <IconChevronDown
                size={16}
                aria-hidden
                style={{ transform: menuOpened ? 'rotate(180deg)' : undefined }}
              />
            </Group>
          </UnstyledButton>
          <Group gap={isMobile ? 0 : 4} wrap="nowrap">
            <Tooltip label={t('Command palette (Ctrl+K)')} openDelay={300}>
              <ActionIcon variant="subtle" color="gray" size={isMobile ? 'md' : 'lg'} aria-label={t('Command palette')} onClick={() => paletteActions.open()}>
                <IconSearch size={isMobile ? 18 : 20} stroke={1.6} />
              </ActionIcon>
            </Tooltip>
            {topIcons.map(({ label, href, icon: Icon }) => (
              <Tooltip key={href} label={t(label)} openDelay={300}>
                <ActionIcon component={Link} to={href} variant="subtle" color="gray" size={isMobile ? 'md' : 'lg'} aria-label={t(label)}>
                  <Icon size={isMobile ? 18 : 20} stroke={1.6} />
                </ActionIcon>
              </Tooltip>
            ))}
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="xs" id="main-menu">
        <NavMenu onNavigate={isMobile ? mobile.close : undefined} />
      </AppShell.Navbar>

      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
      <CommandPalette />

      <AppShell.Footer>
        <Group h="100%" px="md" gap="md" justify="center">
          <Text size="xs" c="dimmed">
            {`© ${new Date().getFullYear()} Bilan`}
          </Text>
          <Anchor component={Link} to={paths.home.getHref()} size="xs">
            {t('Home')}
          </Anchor>
          <Anchor href="/api/docs" target="_blank" rel="noreferrer" size="xs" title={t('API documentation of this version')}>
            {version}
          </Anchor>
        </Group>
      </AppShell.Footer>
    </AppShell>
  );
}
