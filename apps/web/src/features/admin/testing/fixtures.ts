import type {
  AdminDashboard,
  AdminDonation,
  AdminDonor,
  AdminPatient,
  AdminRequest,
  BloodUnit,
  Paged,
} from '@bloodbank/shared/admin';
import { BLOOD_GROUPS } from '@bloodbank/shared/blood-groups';
import { COMPONENTS, type ComponentCounts } from '@bloodbank/shared/components';
import { jsonResponse } from '@/test/mock-api';

/** Sample answers of the admin endpoints for the component tests. */

export const STOCK: Record<string, number> = {
  'A+': 12,
  'A-': 5,
  'B+': 8,
  'B-': 0,
  'AB+': 3,
  'AB-': 2,
  'O+': 15,
  'O-': 7,
};

/** A group's stock per component: `units` (red cells + whole blood) from STOCK, plus plasma and platelets. */
export function componentsOf(bloodgroup: string): ComponentCounts {
  const units = STOCK[bloodgroup] ?? 0;
  const whole = Math.floor(units / 3);
  return {
    whole_blood: whole,
    red_cells: units - whole,
    plasma: bloodgroup === 'AB+' ? 4 : Math.floor(units / 2),
    platelets: bloodgroup === 'O+' ? 1 : 0,
  };
}

export function dashboard(overrides: Partial<AdminDashboard> = {}): AdminDashboard {
  const inventory = BLOOD_GROUPS.map((bloodgroup) => ({
    bloodgroup,
    units: STOCK[bloodgroup] ?? 0,
    // Red-cell units split between red cells and whole blood; plasma and platelets beside them.
    components: componentsOf(bloodgroup),
    expiring_soon: bloodgroup === 'A+' ? 2 : 0,
    low: (STOCK[bloodgroup] ?? 0) < 5,
    critical: (STOCK[bloodgroup] ?? 0) < 2,
    expired: bloodgroup === 'O+' ? 3 : 0,
    in_testing: bloodgroup === 'B+' ? 2 : 0,
    on_hold: bloodgroup === 'O+' ? 1 : 0,
  }));
  return {
    totalDonors: 15,
    totalPatients: 25,
    totalBloodUnits: inventory.reduce(
      (sum, row) => sum + COMPONENTS.reduce((groupSum, component) => groupSum + row.components[component], 0),
      0,
    ),
    pendingDonations: 3,
    bookingsDue: 2,
    awaitingResults: 1,
    pendingRequests: 8,
    lowStockThreshold: 5,
    inventory,
    weekly: Array.from({ length: 12 }, (_, index) => ({
      week_start: `2026-${String(9 + Math.floor(index / 4)).padStart(2, '0')}-${String(1 + (index % 4) * 7).padStart(2, '0')}`,
      donations: index % 3,
      requests: index % 2,
    })),
    expiringUnits: [
      { id: 101, bloodgroup: 'A+', component: 'red_cells', expires_on: '2026-11-24' },
      { id: 102, bloodgroup: 'A+', component: 'red_cells', expires_on: '2026-11-24' },
      { id: 103, bloodgroup: 'A+', component: 'platelets', expires_on: '2026-11-24' },
    ],
    // Plasma configured for 12 months less a day, to tell the configured values from the defaults.
    shelfLifeDays: { whole_blood: 35, red_cells: 42, plasma: 364, platelets: 5 },
    ...overrides,
  };
}

export function paged<T>(items: T[], page = 1, pageSize = 20, total = items.length): Paged<T> {
  return { items, total, page, pageSize };
}

export const donor: AdminDonor = {
  id: 11,
  username: 'asha.k',
  first_name: 'Asha',
  last_name: 'Kulkarni',
  email: 'asha@example.com',
  bloodgroup: 'O+',
  address: '12 Park Street',
  mobile: '9876543210',
  is_active: true,
  deactivated_at: null,
  created_at: '2026-10-01T10:00:00.000Z',
  donations: 2,
  deferred: null,
};

export const patient: AdminPatient = {
  id: 21,
  username: 'kiran.p',
  first_name: 'Kiran',
  last_name: 'Sharma',
  email: 'kiran@example.com',
  bloodgroup: 'B-',
  address: '4 Lake Road',
  mobile: '9123456780',
  is_active: true,
  deactivated_at: null,
  created_at: '2026-10-02T10:00:00.000Z',
  disease: 'Surgery',
  age: 40,
  doctorname: 'Dr. Rao',
  requests: 1,
};

export const pendingRequest: AdminRequest = {
  id: 38,
  bloodgroup: 'B-',
  unit: 2,
  date: '2026-11-25',
  doctorname: 'Dr. Rao',
  hospitaladdress: 'City Hospital, Pune',
  reason: 'Surgery',
  component: 'red_cells',
  status: 'pending',
  rejection_reason: null,
  issued_bloodgroup: null,
  issued_unit_ids: [],
  created_at: '2026-11-20T10:00:00.000Z',
  decided_at: null,
  patient_id: 21,
  patient_name: 'Kiran Sharma',
  patient_username: 'kiran.p',
};

export const pendingDonation: AdminDonation = {
  id: 53,
  bloodgroup: 'B-',
  unit: 1,
  date: '2026-11-22',
  disease: 'Diabetes',
  lastDonation: null,
  status: 'pending',
  rejection_reason: null,
  created_at: '2026-11-20T10:00:00.000Z',
  decided_at: null,
  donor_id: 11,
  donor_name: 'Asha Kulkarni',
  donor_username: 'asha.k',
  donor_bloodgroup: 'B-',
  unit_ids: [],
  collected_on: null,
  appointment: null,
  screening: null,
  test_results: null,
  outcome_reason: null,
};

/** The admin navigation reads the dashboard for its pending counts: every screen test answers it. */
export const dashboardHandler = () => jsonResponse(200, dashboard());

/** A red-cell unit on the shelf. */
export const availableUnit: BloodUnit = {
  id: 7,
  bloodgroup: 'O+',
  component: 'red_cells',
  parent_unit_id: null,
  source: 'donation',
  donation_id: 3,
  collected_on: '2026-11-01',
  expires_on: '2026-12-13',
  status: 'available',
  hold_reason: null,
  expired: false,
  request_id: null,
  issued_at: null,
  discarded_at: null,
  discard_reason: null,
  created_at: '2026-11-01T10:00:00.000Z',
};
