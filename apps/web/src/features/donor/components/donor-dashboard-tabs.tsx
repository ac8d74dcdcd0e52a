import type { ReactNode } from 'react';
import { Tabs } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAward, IconLayoutDashboard, IconTrophy } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { AchievementsGallery } from './achievements-gallery';
import { DashboardOverview } from './dashboard-overview';
import { GameDashboard } from './game-dashboard';

const TABS = ['dashboard', 'game', 'achievements'] as const;
type Tab = (typeof TABS)[number];

const TAB_LABELS: { value: Tab; label: string; icon: ReactNode }[] = [
  { value: 'dashboard', label: 'Dashboard', icon: <IconLayoutDashboard size={16} aria-hidden /> },
  { value: 'game', label: 'Blood Hero Game', icon: <IconTrophy size={16} aria-hidden /> },
  { value: 'achievements', label: 'Achievements', icon: <IconAward size={16} aria-hidden /> },
];

const isTab = (value: string | null): value is Tab => TABS.some((tab) => tab === value);

/**
 * The three tabs of the donor dashboard (spec section 2). The open tab lives in the address
 * (?tab=game), so it survives a reload and the browser's Back button returns to the previous tab.
 */
export function DonorDashboardTabs() {
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('tab');
  const active: Tab = isTab(requested) ? requested : 'dashboard';
  const phone = useMediaQuery('(max-width: 30em)');

  return (
    <Tabs
      value={active}
      onChange={(value) => {
        if (!isTab(value)) return;
        setSearchParams(value === 'dashboard' ? {} : { tab: value });
      }}
      keepMounted={false}
      variant="pills"
      radius="xl"
    >
      {/* On a phone (no icons, smaller text and padding) the three share one line, each as wide as
          its label, and a label never breaks; on a screen narrower still a tab moves to a second
          row whole, rather than "Blood Hero Game" breaking onto three lines. */}
      <Tabs.List mb="lg" aria-label="Donor dashboard sections">
        {TAB_LABELS.map((tab) => (
          <Tabs.Tab
            key={tab.value}
            value={tab.value}
            leftSection={phone ? undefined : tab.icon}
            px={phone ? 8 : 'md'}
            fz={phone ? 13 : undefined}
            // The smaller text keeps a finger's height.
            mih={phone ? 40 : undefined}
            style={phone ? { flex: '1 1 auto' } : undefined}
          >
            {tab.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>

      <Tabs.Panel value="dashboard">
        <DashboardOverview />
      </Tabs.Panel>
      <Tabs.Panel value="game">
        <GameDashboard headingOrder={2} />
      </Tabs.Panel>
      <Tabs.Panel value="achievements">
        <AchievementsGallery headingOrder={2} />
      </Tabs.Panel>
    </Tabs>
  );
}
