import { vi } from 'vitest';

export interface MockRequest {
  method: string;
  path: string;
  /** The query string's parameters. */
  query: URLSearchParams;
  headers: Headers;
  body: BodyInit | null | undefined;
  /** The body as JSON when it was sent as JSON. */
  json: () => unknown;
}

type Handler = (request: MockRequest) => Response | Promise<Response>;

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** The bank's contact details every test's frame shows (the server's defaults). */
export const TEST_BANK_CONTACT = { phone: '+1 (555) 010-0199', email: 'help@bloodbank.example' };

/**
 * Asked by the app's frame whatever the screen under test: the header's bell on every signed-in
 * screen (no notifications), the footer's contact details on every screen; unless a test gives its
 * own handler.
 */
const ALWAYS_ASKED: Record<string, Handler> = {
  'GET /api/notifications': () => jsonResponse(200, { items: [], unread: 0, more: false }),
  'GET /api/public/contact': () => jsonResponse(200, TEST_BANK_CONTACT),
};

/**
 * Stubs fetch with handlers keyed "METHOD /api/path". A request nobody expected is reported with
 * console.error, which fails the test (see setup.ts).
 */
export function mockApi(handlers: Record<string, Handler>) {
  const requests: MockRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const request: MockRequest = {
      method: init.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: new Headers(init.headers),
      body: init.body,
      json: () => JSON.parse(String(init.body)),
    };
    requests.push(request);
    const handler =
      handlers[`${request.method} ${request.path}`] ?? ALWAYS_ASKED[`${request.method} ${request.path}`];
    if (!handler) {
      console.error(`Unexpected request: ${request.method} ${request.path}`);
      return jsonResponse(500, { detail: 'Unexpected request in test' });
    }
    return handler(request);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { requests, fetchMock };
}

/** A promise the test resolves when it wants: for looking at a screen while a request is in flight. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

export const sampleUser = {
  userId: 7,
  userType: 'donor' as const,
  username: 'asha',
  first_name: 'Asha',
  last_name: 'Kumar',
  email: 'asha@example.com',
  bloodgroup: 'O+' as const,
  address: '12 Park Street',
  mobile: '9876543210',
  disease: null,
  age: null,
  doctorname: null,
  has_profile_pic: false,
  created_at: '2026-01-01T00:00:00.000Z',
};

export function tokenFor(userType: 'admin' | 'donor' | 'patient', userId = 7) {
  return {
    access_token: `token-${userType}-${userId}`,
    token_type: 'bearer',
    user_type: userType,
    user_id: userId,
  };
}
