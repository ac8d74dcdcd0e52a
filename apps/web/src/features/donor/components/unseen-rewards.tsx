import { useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '@/app/paths';
import { useUnseenRewards } from '../hooks/use-unseen-rewards';
import { AchievementUnlockedModal } from './achievement-unlocked-modal';
import { RewardsPanel } from './rewards-panel';

/**
 * The rewards credited since the donor last looked (PRODUCT.md 3.4): the rewards panel and the
 * Achievement Unlocked! modal for what arrived. Nothing while there is nothing new.
 */
export function UnseenRewards({ onGameDashboard = false }: { onGameDashboard?: boolean }) {
  const reward = useUnseenRewards();
  const navigate = useNavigate();
  const [panelOpen, setPanelOpen] = useState(true);
  const [modalOpen, setModalOpen] = useState(true);
  if (!reward.data) return null;
  const arrived = reward.data;
  return (
    <>
      {panelOpen ? (
        <RewardsPanel
          reward={arrived}
          onClose={() => setPanelOpen(false)}
          onViewGame={onGameDashboard ? undefined : () => void navigate(paths.donor.game)}
        />
      ) : null}
      <AchievementUnlockedModal
        achievements={arrived.achievements}
        opened={modalOpen && arrived.achievements.length > 0}
        onClose={() => setModalOpen(false)}
      />
    </>
  );
}
