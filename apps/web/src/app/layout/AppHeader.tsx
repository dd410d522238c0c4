import { AlertOutlined, BarChartOutlined, BgColorsOutlined, FieldTimeOutlined, MenuFoldOutlined, MenuUnfoldOutlined, SettingOutlined, UserOutlined, WifiOutlined } from '@ant-design/icons';
import { Button, ConfigProvider, Dropdown, Flex, Layout, Menu, Spin, Tag, Typography, theme, type MenuProps } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useOrganisations } from '../../shared/source-tree/index.ts';
import { useLogout } from '../../features/session/index.ts';
import { useSessionUser } from '../../features/session/index.ts';
import { LANGUAGES, switchLanguage, toLanguage } from '../../i18n/index.ts';
import { setThemeMode, THEME_MODES, useThemeMode } from '../theme.ts';
import { shorePlaybackLabel } from '../../shared/shore-playback-label.ts';
import { hasSidebarToggle, menuKeyOf } from './header-rules.ts';
import { useShellState } from '../../shared/layout/shell-state.tsx';
import { EventSettingsDialog } from '../event-slots.tsx';

/** Opened from the settings menu now and then: loaded on first use, not with the first screen. */
const WatchLimitDialog = lazy(() => import('../../features/fleet/index.ts').then((m) => ({ default: m.WatchLimitDialog })));
const LinkPolicyDialog = lazy(() => import('../../features/link-policies/index.ts').then((m) => ({ default: m.LinkPolicyDialog })));

const LANGUAGE_LABEL_KEYS = { 'zh-CN': 'language.zhCN', en: 'language.en' } as const;
const THEME_LABEL_KEYS = { day: 'shell.theme.day', night: 'shell.theme.night' } as const;
/** Tighter items than antd's default: the five top menu items fit at 1440 px in English too. */
const MENU_THEME = { components: { Menu: { itemPaddingInline: 8 } } };

/**
 * Spec §2 desktop header: the organisation as brand, the top menu, the settings menu (language,
 * theme, and the selected organisation's watching limit and link policies for its managers), the role text and the
 * user menu (name, Logout).
 */
export function AppHeader() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { token } = theme.useToken();
  const { selected } = useOrganisations();
  const user = useSessionUser();
  const logout = useLogout();
  const mode = useThemeMode();
  const shell = useShellState();
  const language = toLanguage(i18n.language) ?? 'zh-CN';
  const [watchLimitOpen, setWatchLimitOpen] = useState(false);
  const [linkPoliciesOpen, setLinkPoliciesOpen] = useState(false);
  const [eventSettingsOpen, setEventSettingsOpen] = useState(false);

  const topMenu: MenuProps['items'] = [
    { key: 'live', label: t('shell.menu.mainPreview') },
    { key: 'shipPlayback', label: t('playback.menu') },
    { key: 'shipPhoto', label: t('pictures.menu.shipPhoto') },
    // Spec §2: a submenu for shore playback, video and photo (njzsz calls it near-end playback).
    {
      key: 'shorePlayback',
      label: t(shorePlaybackLabel(selected?.id)),
      children: [
        { key: 'shorePlayback:video', label: t('shorePlayback.menu.video') },
        { key: 'shorePlayback:photo', label: t('pictures.menu.shorePhoto') },
        // Events are kept on shore with their pictures; the top menu has no room for a sixth item in English.
        { key: 'shorePlayback:events', label: t('events.menu') },
      ],
    },
    { key: 'carousel', label: t('carousel.menu') },
  ];

  const settingsMenu: MenuProps = {
    selectable: true,
    selectedKeys: [`language:${language}`, `theme:${mode}`],
    items: [
      {
        type: 'group',
        label: t('language.label'),
        children: LANGUAGES.map((value) => ({ key: `language:${value}`, label: t(LANGUAGE_LABEL_KEYS[value]) })),
      },
      { type: 'divider' },
      {
        type: 'group',
        label: t('shell.theme.label'),
        children: THEME_MODES.map((value) => ({ key: `theme:${value}`, icon: <BgColorsOutlined />, label: t(THEME_LABEL_KEYS[value]) })),
      },
      { type: 'divider' },
      { key: 'watchLimit:open', icon: <FieldTimeOutlined />, label: t('fleet.watchLimit.menu') },
      // The source tree's link icon (already in the first screen's JavaScript).
      { key: 'linkPolicies:open', icon: <WifiOutlined />, label: t('linkPolicies.menu') },
      { key: 'eventSettings:open', icon: <AlertOutlined />, label: t('events.settingsMenu') },
    ],
    onClick: ({ key }) => {
      const [kind, value] = key.split(':');
      if (kind === 'language') {
        const next = toLanguage(value);
        if (next) void switchLanguage(i18n, next);
      } else if (kind === 'watchLimit') setWatchLimitOpen(true);
      else if (kind === 'linkPolicies') setLinkPoliciesOpen(true);
      else if (kind === 'eventSettings') setEventSettingsOpen(true);
      else if (value === 'day' || value === 'night') setThemeMode(value);
    },
  };

  const userMenu: MenuProps = {
    items: [{ key: 'logout', label: t('shell.logout') }],
    onClick: ({ key }) => {
      if (key === 'logout') void logout();
    },
  };

  return (
    <Layout.Header style={{ display: 'flex', alignItems: 'center', gap: 16, paddingInline: 16, background: token.colorBgContainer, borderBottom: `1px solid ${token.colorBorderSecondary}` }}>
      {/* At most 200 px: the top menu keeps room for its five items in English too. A long name
          takes a second line before it is cut, and the whole name is its tooltip. */}
      <Typography.Title
        level={4}
        style={{ margin: 0, maxWidth: 200, flex: 'none', fontSize: 16, lineHeight: 1.25 }}
        ellipsis={{ rows: 2, tooltip: true }}
        title={selected?.displayName ?? t('app.title')}
        data-testid="brand"
      >
        {selected?.displayName ?? t('app.title')}
      </Typography.Title>
      {hasSidebarToggle(pathname) ? (
        <Button
          type="text"
          icon={shell.sidebarCollapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          aria-label={shell.sidebarCollapsed ? t('shell.expandSidebar') : t('shell.collapseSidebar')}
          title={shell.sidebarCollapsed ? t('shell.expandSidebar') : t('shell.collapseSidebar')}
          onClick={shell.toggleSidebar}
        />
      ) : null}
      <ConfigProvider theme={MENU_THEME}>
        <Menu
          mode="horizontal"
          items={topMenu}
          selectedKeys={[menuKeyOf(pathname) ?? '']}
          onClick={({ key }) => {
            if (key === 'live') void navigate('/live/index');
            if (key === 'shipPlayback') void navigate('/live/recordlivevideo');
            if (key === 'shorePlayback:video') void navigate('/record/video');
            if (key === 'shorePlayback:photo') void navigate('/record/photo');
            if (key === 'shorePlayback:events') void navigate('/events');
            if (key === 'shipPhoto') void navigate('/recordlivephoto');
            if (key === 'carousel') void navigate('/carouselConfig');
          }}
          style={{ flex: 1, minWidth: 0, borderBottom: 'none', background: 'transparent' }}
        />
      </ConfigProvider>
      <Flex align="center" gap={8}>
        <Button
          type={shell.statisticsOpen ? 'primary' : 'text'}
          icon={<BarChartOutlined />}
          aria-pressed={shell.statisticsOpen}
          onClick={() => shell.setStatisticsOpen(!shell.statisticsOpen)}
        >
          {t('shell.statistics')}
        </Button>
        <Tag data-testid="role">{t('shell.role', { role: t(user?.role === 'operator' ? 'shell.roleOperator' : 'shell.roleManager') })}</Tag>
        <Dropdown menu={settingsMenu} trigger={['click']}>
          <Button type="text" icon={<SettingOutlined />} aria-label={t('shell.settings')}>
            {t('shell.settings')}
          </Button>
        </Dropdown>
        <Dropdown menu={userMenu} trigger={['click']}>
          <Button type="text" icon={<UserOutlined />} aria-label={t('shell.user')} data-testid="user-menu">
            {user?.displayName ?? ''}
          </Button>
        </Dropdown>
      </Flex>
      {/* A dialog's code loads when it is first opened (seconds on a slow link): a spinner meanwhile. */}
      {watchLimitOpen ? (
        <Suspense fallback={<Spin fullscreen />}>
          <WatchLimitDialog org={selected} open onClose={() => setWatchLimitOpen(false)} />
        </Suspense>
      ) : null}
      {linkPoliciesOpen ? (
        <Suspense fallback={<Spin fullscreen />}>
          <LinkPolicyDialog org={selected} open onClose={() => setLinkPoliciesOpen(false)} />
        </Suspense>
      ) : null}
      {eventSettingsOpen ? (
        <Suspense fallback={<Spin fullscreen />}>
          <EventSettingsDialog org={selected} open onClose={() => setEventSettingsOpen(false)} />
        </Suspense>
      ) : null}
    </Layout.Header>
  );
}
