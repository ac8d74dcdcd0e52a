/** Business constants and limits (spec section 9, PRODUCT.md section 3). */

export const DONATION_UNITS = { min: 1, max: 2, default: 1 } as const;
export const REQUEST_UNITS = { min: 1, max: 10 } as const;
export const PATIENT_AGE = { min: 1, max: 120 } as const;
export const PASSWORD_LENGTH = { min: 6, max: 128 } as const;
export const USERNAME_LENGTH = { min: 3, max: 50 } as const;
export const MOBILE_DIGITS = 10;

/** A donor may donate again this many days after their last collected donation (default of DONATION_INTERVAL_DAYS). */
export const DONATION_INTERVAL_DAYS = 90;
/** How far ahead a donation can be booked, and a request's required date can lie (PRODUCT.md 3.2, 3.5). */
export const BOOKING_DAYS_AHEAD = 90;
export const REQUEST_DAYS_AHEAD = 365;
/** Consecutive rewarded donations keep a streak when at most this many days apart. */
export const STREAK_WINDOW_DAYS = 180;
export const POINTS_PER_DONATION = 100;
export const LEADERBOARD_LIMIT = { min: 1, max: 100, default: 10 } as const;
export const REWARDS_PANEL_MAX_ACHIEVEMENTS = 3;

export const DEFAULT_LOW_STOCK_THRESHOLD = 5;
export const EXPIRING_SOON_DAYS = 7;
export const RECENT_ACTIVITY_LIMIT = 10;
export const WEEKLY_CHART_WEEKS = 12;

export const PROFILE_PICTURE_MAX_BYTES = 2 * 1024 * 1024;
export const PROFILE_PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
/** Shown by the registration forms before upload and by the server after checking the content. */
export const PROFILE_PICTURE_TYPE_MESSAGE = 'Profile picture must be a JPEG, PNG or WebP image';
export const PROFILE_PICTURE_SIZE_MESSAGE = 'Profile picture must be at most 2 MB';

export const DONOR_HEALTH_OPTIONS = ['None', 'Diabetes', 'High Blood Pressure', 'Heart Disease', 'Other'] as const;
export type DonorHealthOption = (typeof DONOR_HEALTH_OPTIONS)[number];

export const PATIENT_DISEASE_OPTIONS = [
  'Cancer',
  'Diabetes',
  'Heart Disease',
  'Hypertension',
  'Accident',
  'Surgery',
  'Other',
] as const;
export type PatientDiseaseOption = (typeof PATIENT_DISEASE_OPTIONS)[number];

export const ELIGIBILITY_STATEMENT =
  'I confirm that I am in good health, have not consumed alcohol in the last 24 hours, and have not donated blood in the last 3 months.';

/** User-facing messages of spec section 8, word for word. */
export const MESSAGES = {
  loginFailed: 'Login failed. Please try again.',
  /** The 401 of a token that is expired, revoked or not one of ours (PRODUCT.md section 4). */
  sessionInvalid: 'Your session has expired or is no longer valid. Please log in again.',
  registrationFailed: 'Registration failed. Please try again.',
  unexpected: 'An unexpected error occurred. Please try again later.',
  invalidCredentials: 'Invalid username or password',
  usernameExists: 'Username already exists',
  registrationSuccessful: 'Registration successful',
  dashboardLoadFailed: 'Failed to load dashboard data. Please try again.',
  gameLoadFailed: 'Failed to load game data. Please try again.',
  achievementLoadFailed: 'Unable to load achievement data. Please try again later.',
  achievementsLoadFailed: 'Failed to load achievements data. Please try again.',
  donationSubmitFailed: 'Failed to submit your donation request. Please try again.',
  requestSubmitFailed: 'Failed to submit your request. Please try again.',
  noRecentActivities: 'No recent activities to display.',
  noLeaderboard: 'No leaderboard data available.',
  noAchievements: 'No achievements available yet. Check back soon!',
  pendingDonationExists: 'You already have a donation awaiting approval.',
  noDonationToReward: 'No completed donation to reward',
  /** Formatted with the first eligible date. */
  donateAgainFrom: (date: string) => `You can donate again from ${date}.`,
  /** A deferred donor books (PRODUCT.md 3.7). */
  deferredUntil: (date: string) => `You are deferred from donating until ${date}.`,
  deferredPermanently: 'You cannot donate at this time. Please contact the blood bank.',
  /** PRODUCT.md 3.3: platelets keep 5 days and are separated the day the blood was taken. */
  plateletsSameDay: 'Platelets must be separated on the day of collection.',
  /** After booking (PRODUCT.md 3.4): the reward comes at collection. */
  pointsAtCollection: '+100 points when your donation is collected',
  /** Formatted with the number of units available. */
  notEnoughStock: (available: number) =>
    `Stock does not have enough blood to approve this request. Only ${available} units available.`,
} as const;
