import type { ComponentType } from 'react';
import {
  IconAward,
  IconCrown,
  IconDroplet,
  IconFlame,
  IconMedal,
  IconShieldCheck,
  type IconProps,
} from '@tabler/icons-react';

/** Spec section 3: one icon per icon key; any other key gets the default. */
const ICONS: Record<string, ComponentType<IconProps>> = {
  first_hero_badge: IconDroplet,
  regular_hero_badge: IconMedal,
  super_hero_badge: IconShieldCheck,
  master_badge: IconCrown,
  streak_badge: IconFlame,
};

export function AchievementIcon({ icon, size = 24 }: { icon: string; size?: number }) {
  const Icon = ICONS[icon] ?? IconAward;
  return <Icon size={size} aria-hidden data-icon={icon in ICONS ? icon : 'default'} />;
}
