import { DEFAULT_SHELF_LIFE_DAYS, type ComponentCounts } from '@bloodbank/shared/components';
import { useDashboard } from './get-dashboard';

/**
 * The shelf life of each component the server is configured with (the dashboard carries them),
 * and whether they are those: until the dashboard has answered, the defaults stand in.
 */
export function useShelfLives(): { days: ComponentCounts; configured: boolean } {
  const dashboard = useDashboard();
  const configured = dashboard.data?.shelfLifeDays;
  return configured ? { days: configured, configured: true } : { days: DEFAULT_SHELF_LIFE_DAYS, configured: false };
}
