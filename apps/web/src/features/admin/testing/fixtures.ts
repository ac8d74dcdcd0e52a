import type {
  AdminDashboard,
  AdminDonation,
  AdminDonor,
  AdminPatient,
  AdminRequest,
  Paged,
} from '@bloodbank/shared/admin';
import { BLOOD_GROUPS } from '@bloodbank/shared/blood-groups';
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

export function dashboard(overrides: Partial<AdminDashboard> = {}): AdminDashboard {
  const inventory = BLOOD_GROUPS.map((bloodgroup) => ({
    bloodgroup,
    units: STOCK[bloodgroup] ?? 0,
    expiring_soon: bloodgroup === 'A+' ? 2 : 0,
    low: (STOCK[bloodgroup] ?? 0) < 5,
    expired: bloodgroup === 'O+' ? 3 : 0,
  }));
  return {
    totalDonors: 15,
    totalPatients: 25,
    totalBloodUnits: inventory.reduce((sum, row) => sum + row.units, 0),
    pendingDonations: 3,
    pendingRequests: 8,
    lowStockThreshold: 5,
    inventory,
    weekly: Array.from({ length: 12 }, (_, index) => ({
      week_start: `2026-${String(9 + Math.floor(index / 4)).padStart(2, '0')}-${String(1 + (index % 4) * 7).padStart(2, '0')}`,
      donations: index % 3,
      requests: index % 2,
    })),
    expiringUnits: [
      { id: 101, bloodgroup: 'A+', expires_on: '2026-11-24' },
      { id: 102, bloodgroup: 'A+', expires_on: '2026-11-24' },
    ],
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
  unit_ids: [],
};

/** The admin navigation reads the dashboard for its pending counts: every screen test answers it. */
export const dashboardHandler = () => jsonResponse(200, dashboard());
