import { lazy, Suspense, useRef } from 'react';
import { Box, Burger, Button, Container, Divider, Group, Text } from '@mantine/core';
import { useDisclosure, useWindowEvent } from '@mantine/hooks';
import { IconChevronDown, IconDroplet, IconLogout, IconUserCircle, IconUserCog } from '@tabler/icons-react';
import { Link, NavLink, useNavigate } from 'react-router';
import { displayNameOf, useAuth } from '@/lib/auth/auth-context';
import { paths } from '../paths';
import { PRODUCT_NAME } from './product-name';
import { HeaderMenu } from './header-menu';
import classes from './layout.module.css';
import { ADMIN_LINK, ADMIN_SECTIONS, HOME_LINK, roleLinks, VISITOR_GROUPS, type NavItem } from './navigation';

const MOBILE_MENU_ID = 'mobile-menu';

// The bell (its popover, the list, the schemas) is only for signed-in users: a visitor's first
// screen never downloads it.
const NotificationBell = lazy(() => import('@/features/notifications/components/notification-bell'));
const PROFILE_LINK: NavItem = { label: 'Profile', to: paths.profile };

export function Header() {
  const auth = useAuth();
  const navigate = useNavigate();
  const [menuOpened, menu] = useDisclosure(false);
  const burgerRef = useRef<HTMLButtonElement>(null);
  // Escape closes the phone's menu, as it closes every other pop-up, and gives focus back to its button.
  useWindowEvent('keydown', (event) => {
    if (event.key !== 'Escape' || !menuOpened) return;
    menu.close();
    burgerRef.current?.focus();
  });

  const logout = () => {
    menu.close();
    void navigate(paths.home);
    auth.signOut();
  };

  const userName = auth.status === 'signed-in' ? displayNameOf(auth.user) : null;
  const links: NavItem[] = auth.status === 'signed-in' ? [HOME_LINK, ...roleLinks(auth.role)] : [HOME_LINK];
  // Everyone signed in has a profile: the account, its password and (donors, patients) e-mail choices.
  const hasProfile = auth.status === 'signed-in';

  const burger = (
    <Burger
      ref={burgerRef}
      hiddenFrom="sm"
      opened={menuOpened}
      onClick={menu.toggle}
      aria-label={menuOpened ? 'Close navigation' : 'Open navigation'}
      aria-expanded={menuOpened}
      aria-controls={MOBILE_MENU_ID}
    />
  );

  return (
    <Box component="header" className={classes.header}>
      <Container size="lg" className={classes.headerInner}>
        <Link to={paths.home} className={classes.brand} onClick={menu.close}>
          <IconDroplet className={classes.brandMark} size={28} stroke={2.2} fill="currentColor" aria-hidden />
          {PRODUCT_NAME}
        </Link>

        <Group gap={4} wrap="nowrap">
          <Group component="nav" aria-label="Main" gap={4} visibleFrom="sm" wrap="nowrap">
            {links.map((link) => (
              <Button
                key={link.to}
                component={NavLink}
                to={link.to}
                end
                variant="subtle"
                color="gray"
                className={classes.navLink}
              >
                {link.label}
              </Button>
            ))}

            {auth.status === 'signed-out'
              ? VISITOR_GROUPS.map((group) => (
                  <HeaderMenu
                    key={group.label}
                    width={180}
                    items={group.items}
                    trigger={
                      <Button
                        variant="subtle"
                        color="gray"
                        className={classes.navLink}
                        rightSection={<IconChevronDown size={16} aria-hidden />}
                      >
                        {group.label}
                      </Button>
                    }
                  />
                ))
              : null}
            {auth.status === 'signed-out' ? (
              <Button
                component={NavLink}
                to={ADMIN_LINK.to}
                variant="subtle"
                color="gray"
                className={classes.navLink}
              >
                {ADMIN_LINK.label}
              </Button>
            ) : null}

            {userName !== null ? (
              <HeaderMenu
                width={200}
                items={[
                  ...(hasProfile
                    ? [{ ...PROFILE_LINK, leftSection: <IconUserCog size={16} aria-hidden /> }]
                    : []),
                  { label: 'Logout', onClick: logout, leftSection: <IconLogout size={16} aria-hidden /> },
                ]}
                trigger={
                  <Button
                    variant="light"
                    leftSection={<IconUserCircle size={18} aria-hidden />}
                    rightSection={<IconChevronDown size={16} aria-hidden />}
                    ml="xs"
                    maw={220}
                  >
                    {/* The button's line-height of 1 makes the truncating (overflow: hidden) box one
                        em tall, which cut off descenders: the underscore of "demo_admin". A taller
                        line box, still centred inside the 36 px button, keeps the button's size. */}
                    <Text span inherit truncate="end" maw={130} lh={1.5}>
                      {userName}
                    </Text>
                  </Button>
                }
              />
            ) : null}
          </Group>

          {/* Beside the user menu on a desktop, beside the burger on a phone. */}
          {auth.status === 'signed-in' ? (
            <Suspense fallback={<Box w={40} h={40} aria-hidden />}>
              <NotificationBell />
            </Suspense>
          ) : null}
          {burger}
        </Group>
      </Container>

      {menuOpened ? (
        <Box
          component="nav"
          id={MOBILE_MENU_ID}
          aria-label="Main"
          hiddenFrom="sm"
          className={classes.mobileMenu}
        >
          {links.map((link) => (
            <MobileLink key={link.to} item={link} onNavigate={menu.close} />
          ))}
          {auth.status === 'signed-in' && auth.role === 'ADMIN' ? (
            <div role="group" aria-labelledby="mobile-group-admin">
              <div id="mobile-group-admin" className={classes.mobileGroupLabel}>
                Administration
              </div>
              {ADMIN_SECTIONS.filter((section) => section.to !== paths.admin.dashboard).map((section) => (
                <MobileLink key={section.to} item={section} onNavigate={menu.close} />
              ))}
            </div>
          ) : null}
          {auth.status === 'signed-out' ? (
            <>
              {VISITOR_GROUPS.map((group) => (
                <div key={group.label} role="group" aria-labelledby={`mobile-group-${group.label}`}>
                  <div id={`mobile-group-${group.label}`} className={classes.mobileGroupLabel}>
                    {group.label}
                  </div>
                  {group.items.map((item) => (
                    <MobileLink key={item.to} item={item} onNavigate={menu.close} />
                  ))}
                </div>
              ))}
              <Divider my={6} />
              <MobileLink item={ADMIN_LINK} onNavigate={menu.close} />
            </>
          ) : null}
          {userName !== null ? (
            <div role="group" aria-labelledby="mobile-group-user">
              <Divider my={6} />
              <div id="mobile-group-user" className={classes.mobileGroupLabel}>
                {userName}
              </div>
              {hasProfile ? <MobileLink item={PROFILE_LINK} onNavigate={menu.close} /> : null}
              <Button
                variant="subtle"
                color="gray"
                fullWidth
                justify="flex-start"
                leftSection={<IconLogout size={18} aria-hidden />}
                onClick={logout}
                h={44}
                className={classes.navLink}
              >
                Logout
              </Button>
            </div>
          ) : null}
        </Box>
      ) : null}
    </Box>
  );
}

function MobileLink({ item, onNavigate }: { item: NavItem; onNavigate: () => void }) {
  return (
    <NavLink to={item.to} end className={classes.mobileLink} onClick={onNavigate}>
      {item.label}
    </NavLink>
  );
}
