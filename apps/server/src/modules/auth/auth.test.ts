import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { createAdmin, createDonor, signInForm, TEST_PASSWORD } from '../../../test/factories';
import { multipartBody, TINY_PNG } from '../../../test/multipart';
import { ensureInitialAdmin, INITIAL_ADMIN_PASSWORD_FILE } from '../users/admin-accounts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let sequence = 0;
const donorBody = (overrides: Record<string, unknown> = {}) => ({
  user_type: 'donor',
  username: `donor_${++sequence}`,
  password: 'secret1',
  first_name: 'Asha',
  last_name: 'Kumar',
  email: 'asha@example.org',
  bloodgroup: 'O+',
  address: '12 MG Road, Pune',
  mobile: '9876543210',
  ...overrides,
});
const patientBody = (overrides: Record<string, unknown> = {}) => ({
  ...donorBody({ user_type: 'patient' }),
  disease: 'Surgery',
  age: 42,
  doctorname: 'Dr. Mehta',
  ...overrides,
});

const register = (payload: unknown) => t.app.inject({ method: 'POST', url: '/api/auth/register', payload: payload as object });
const signIn = (username: string, password: string, remoteAddress = '127.0.0.1') =>
  signInForm(t, username, password, remoteAddress);

/** No response may ever carry a password or a hash. */
function expectNoSecrets(body: string) {
  expect(body).not.toMatch(/password_hash|\$argon2|"password"/);
}

describe('POST /api/auth/register', () => {
  it('refuses invisible control characters and direction overrides in what others see, but not in a password', async () => {
    // "\u202e" would show "Kumar\u202eevil" reversed to other users; a bell reaches calendar files.
    for (const last_name of ['Ku\u0007mar', '\u202eramuK', 'Kumar\u2066x\u2069', 'Ku\u0085mar']) {
      const refused = await register(donorBody({ last_name }));
      expect(refused.statusCode, JSON.stringify(last_name)).toBe(422);
      expect(refused.json().errors).toEqual({ last_name: 'Text must not contain control characters' });
    }
    // A name is on one line: a line break there made an e-mail's greeting read "Hello Ravi / Bcc: ...".
    for (const [field, value] of [['first_name', 'Ravi\nBcc: x@y.z'], ['last_name', 'Kumar\r\nX']] as const) {
      const refused = await register(donorBody({ [field]: value }));
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors).toEqual({ [field]: 'Must be on one line' });
    }
    // A name greets people in the bank's e-mails: no web address in it (a stranger's phishing line).
    for (const [field, value] of [
      ['first_name', 'Your account is locked - unlock it at https://phish.example/bank-login today.'],
      ['last_name', 'see www.phish.example'],
      ['first_name', 'Your account is locked - unlock it at bank-login.example.com/verify'],
      ['last_name', 'see https\uFF1A//evil.example'],
      ['last_name', '\uFF57\uFF57\uFF57\uFF0Eevil'],
    ] as const) {
      const refused = await register(donorBody({ [field]: value }));
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors).toEqual({ [field]: 'Please enter a name, not a web address' });
    }
    // Initials and dotted names are names.
    expect((await register(donorBody({ first_name: 'J. R.', last_name: "St. John-D'Souza", username: `dotted_${sequence}` }))).statusCode).toBe(201);
    expect((await register(donorBody({ first_name: 'Mohd.Irfan', last_name: 'St.John', username: `dotted2_${sequence}` }))).statusCode).toBe(201);
    // A name's length is counted as it is stored (NFC): 100 × ज़ typed as one character is 200 in NFC.
    const lengthened = await register(donorBody({ first_name: '\u095B'.repeat(100) }));
    expect(lengthened.statusCode).toBe(422);
    expect(lengthened.json().errors).toEqual({ first_name: 'Must be at most 100 characters' });
    // A line break in an address, accents, Devanagari and an Arabic name are text, not controls.
    const accepted = await register(
      donorBody({ first_name: 'José', last_name: 'नायर', address: 'Flat 2\nMG Road', username: `arabic_${sequence}` }),
    );
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect((await register(donorBody({ last_name: 'حداد' }))).statusCode).toBe(201);
    // A password is never shown: only NUL is refused there.
    const password = 'bell\u0007password';
    const withBell = donorBody({ password });
    expect((await register(withBell)).statusCode).toBe(201);
    expect((await signIn(withBell.username, password)).statusCode).toBe(200);
  });

  it("stamps the account and its first activity with the bank's clock, not the machine's", async () => {
    t.clock.set('2026-01-02T09:00:00.000Z');
    try {
      const response = await register(donorBody());
      expect(response.statusCode).toBe(201);
      const id = response.json().user_id;
      const row = await t.db.selectFrom('users').select('created_at').where('id', '=', id).executeTakeFirstOrThrow();
      const activity = await t.db.selectFrom('activities').select('created_at').where('user_id', '=', id).executeTakeFirstOrThrow();
      expect([row.created_at, activity.created_at]).toEqual(['2026-01-02T09:00:00.000Z', '2026-01-02T09:00:00.000Z']);
    } finally {
      t.clock.set(undefined);
    }
  });

  it('registers a donor from JSON and answers 201 with id, type and username only', async () => {
    const body = donorBody({ username: 'Asha.K' });
    const response = await register(body);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ user_id: expect.any(Number), user_type: 'donor', username: 'Asha.K' });
    expectNoSecrets(response.body);
    const row = await t.db.selectFrom('users').selectAll().where('id', '=', response.json().user_id).executeTakeFirstOrThrow();
    expect(row.role).toBe('DONOR');
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain('secret1');
  });

  it('keeps the digits of a mobile number written with spaces, hyphens or brackets, as a phone types it', async () => {
    for (const [typed, kept] of [
      ['98765 43210', '9876543210'],
      ['(98765) 432-10', '9876543210'],
      ['+91 98765 43210', '9876543210'],
      ['+91-98765-43210', '9876543210'],
      ['0091 98765 43210', '9876543210'],
      ['098765 43210', '9876543210'],
      ['919876543210', '9876543210'],
      ['९८७६५४३२१०', '9876543210'],
      ['+൯൧ ൯൮൭൬൫ ൪൩൨൧൦', '9876543210'],
    ] as const) {
      const response = await register(donorBody({ mobile: typed }));
      expect(response.statusCode, response.body).toBe(201);
      const row = await t.db.selectFrom('users').select('mobile').where('id', '=', response.json().user_id).executeTakeFirstOrThrow();
      expect(row.mobile).toBe(kept);
    }
  });

  it('refuses a country code other than +91, or +91 without ten digits after it, with the spec message', async () => {
    for (const typed of ['+44 7911 123456', '+91 98765 4321', '+9198765432100', '00 98765 43210', '91 12345 67890']) {
      const response = await register(donorBody({ mobile: typed }));
      expect(response.statusCode, typed).toBe(422);
      expect(response.json().errors, typed).toEqual({ mobile: 'Please enter a valid 10-digit mobile number' });
    }
  });

  it('says "Must be text" for a number where the password or a name belongs, not that it is missing', async () => {
    const response = await register(donorBody({ password: 123456, first_name: 42 }));
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toMatchObject({ password: 'Must be text', first_name: 'Must be text' });
  });

  it('registers a patient with disease, age and doctor', async () => {
    const response = await register(patientBody({ username: 'ravi_p' }));
    expect(response.statusCode).toBe(201);
    const patient = await t.db.selectFrom('patients').selectAll().where('user_id', '=', response.json().user_id).executeTakeFirstOrThrow();
    expect(patient).toMatchObject({ disease: 'Surgery', age: 42, doctorname: 'Dr. Mehta' });
  });

  it('refuses a username that exists in any role, whatever its case, with "Username already exists"', async () => {
    expect((await register(donorBody({ username: 'meera' }))).statusCode).toBe(201);
    const again = await register(patientBody({ username: 'MEERA' }));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ detail: 'Username already exists', errors: { username: 'Username already exists' } });
  });

  it('gives exactly one 201 when the same username is registered twice at once', async () => {
    const responses = await Promise.all([register(donorBody({ username: 'twin' })), register(donorBody({ username: 'Twin' }))]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });

  it.each([
    [{ first_name: '' }, 'first_name', 'First name is required'],
    [{ last_name: '   ' }, 'last_name', 'Last name is required'],
    [{ username: undefined }, 'username', 'Username is required'],
    [{ email: '' }, 'email', 'Email is required'],
    [{ email: 'not-an-email' }, 'email', 'Invalid email address'],
    [{ password: '' }, 'password', 'Password is required'],
    [{ password: '12345' }, 'password', 'Password must be at least 6 characters'],
    [{ bloodgroup: '' }, 'bloodgroup', 'Blood group is required'],
    [{ bloodgroup: 'C+' }, 'bloodgroup', 'Please choose a valid blood group'],
    [{ mobile: '' }, 'mobile', 'Mobile number is required'],
    [{ mobile: '12345' }, 'mobile', 'Please enter a valid 10-digit mobile number'],
    [{ mobile: '98765432101' }, 'mobile', 'Please enter a valid 10-digit mobile number'],
    [{ mobile: '98765 4321x' }, 'mobile', 'Please enter a valid 10-digit mobile number'],
    [{ address: '' }, 'address', 'Address is required'],
    [{ username: 'ab' }, 'username', 'Username must be at least 3 characters'],
    [{ username: 'has space' }, 'username', 'Username may contain only letters, digits, dots, underscores and hyphens'],
  ])('refuses a donor with %j: 422 on %s "%s"', async (override, field, message) => {
    const before = await t.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const response = await register(donorBody(override));
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[field]).toBe(message);
    const after = await t.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it.each([
    [{ age: 0 }, 'age', 'Age must be greater than 0'],
    [{ age: 121 }, 'age', 'Age must be less than 120'],
    [{ age: undefined }, 'age', 'Age is required'],
    [{ doctorname: '' }, 'doctorname', 'Doctor name is required'],
    [{ disease: '' }, 'disease', 'Disease is required'],
    [{ disease: 'Flu' }, 'disease', 'Please choose one of the options'],
  ])('refuses a patient with %j: 422 on %s "%s"', async (override, field, message) => {
    const response = await register(patientBody(override));
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[field]).toBe(message);
  });

  it('refuses an unknown user_type and never creates an admin', async () => {
    const response = await register(donorBody({ user_type: 'admin' }));
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toHaveProperty('user_type');
  });

  it('accepts multipart with a real PNG profile picture, shown only to its owner and admins', async () => {
    const { payload, headers } = multipartBody(donorBody({ username: 'with_pic' }) as Record<string, string>, {
      field: 'profile_pic', filename: 'me.png', contentType: 'image/png', content: TINY_PNG,
    });
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload, headers });
    expect(response.statusCode).toBe(201);
    const ownerId = response.json().user_id;

    const login = await signIn('with_pic', 'secret1');
    const ownerHeaders = { authorization: `Bearer ${login.json().access_token}` };
    const me = await t.app.inject({ method: 'GET', url: '/api/users/me', headers: ownerHeaders });
    expect(me.json().has_profile_pic).toBe(true);

    const own = await t.app.inject({ method: 'GET', url: `/api/users/${ownerId}/avatar`, headers: ownerHeaders });
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/png');
    expect(own.rawPayload.equals(TINY_PNG)).toBe(true);

    const admin = await createAdmin(t);
    expect((await t.app.inject({ method: 'GET', url: `/api/users/${ownerId}/avatar`, headers: admin.headers })).statusCode).toBe(200);
    const other = await createDonor(t);
    const refused = await t.app.inject({ method: 'GET', url: `/api/users/${ownerId}/avatar`, headers: other.headers });
    expect(refused.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/api/users/${ownerId}/avatar` })).statusCode).toBe(401);
  });

  it('refuses a spoofed image (text named .png) with 422 and creates nobody', async () => {
    const { payload, headers } = multipartBody(donorBody({ username: 'spoofer' }) as Record<string, string>, {
      field: 'profile_pic', filename: 'evil.png', contentType: 'image/png', content: Buffer.from('<script>alert(1)</script>'),
    });
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload, headers });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.profile_pic).toBe('Profile picture must be a JPEG, PNG or WebP image');
    expect(await t.db.selectFrom('users').select('id').where('username_key', '=', 'spoofer').executeTakeFirst()).toBeUndefined();
  });

  it('refuses a picture over 2 MB with 422', async () => {
    const big = Buffer.concat([TINY_PNG, Buffer.alloc(2 * 1024 * 1024 + 10)]);
    const { payload, headers } = multipartBody(donorBody({ username: 'bigpic' }) as Record<string, string>, {
      field: 'profile_pic', filename: 'big.png', contentType: 'image/png', content: big,
    });
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload, headers });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.profile_pic).toBe('Profile picture must be at most 2 MB');
  });

  it('answers 413 to a 3 MB JSON body', async () => {
    const response = await register(donorBody({ address: 'x'.repeat(3 * 1024 * 1024) }));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ detail: 'Request body is too large', code: 'too_large' });
  });

  it('answers 400 to malformed JSON and 415 to an unsupported content type', async () => {
    const malformed = await t.app.inject({ method: 'POST', url: '/api/auth/register', headers: { 'content-type': 'application/json' }, payload: '{"user_type": "donor",' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().detail).toBe('Request body is not valid JSON');
    const xml = await t.app.inject({ method: 'POST', url: '/api/auth/register', headers: { 'content-type': 'application/xml' }, payload: '<a/>' });
    expect(xml.statusCode).toBe(415);
    expect(xml.json().detail).toBe('Unsupported content type');
  });
});

describe('POST /api/auth/token', () => {
  beforeAll(async () => {
    expect((await register(donorBody({ username: 'kiran', password: 'kiran-pass' }))).statusCode).toBe(201);
  });

  it('signs in with form-encoded credentials, case-insensitively on the username', async () => {
    const response = await signIn('KIRAN', 'kiran-pass');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({ access_token: expect.any(String), token_type: 'bearer', user_type: 'donor', user_id: expect.any(Number) });
    const me = await t.app.inject({ method: 'GET', url: '/api/users/me', headers: { authorization: `Bearer ${body.access_token}` } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ userId: body.user_id, userType: 'donor', username: 'kiran', first_name: 'Asha', bloodgroup: 'O+' });
    expectNoSecrets(me.body);
  });

  it('answers the same 401 for a wrong password and an unknown user', async () => {
    const wrong = await signIn('kiran', 'nope-nope', '10.0.0.1');
    const unknown = await signIn('nobody-here', 'nope-nope', '10.0.0.1');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().detail).toBe('Invalid username or password');
    expect(unknown.json().detail).toBe('Invalid username or password');
  });

  it('answers 422 with the spec messages when fields are missing', async () => {
    const response = await signIn('', '');
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ username: 'Username is required', password: 'Password is required' });
  });

  it('rate limits repeated failures for one username at one address (429 with a detail), even with the right password', async () => {
    expect((await register(donorBody({ username: 'target', password: 'right-pass' }))).statusCode).toBe(201);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await signIn('target', `wrong-${attempt}`, '10.1.0.1')).statusCode).toBe(401);
    }
    const blocked = await signIn('target', 'right-pass', '10.1.0.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().detail).toBe('Too many failed login attempts. Please try again in 15 minutes.');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // The owner signing in from elsewhere is not locked out by them (more in sign-in-limits.test.ts).
    expect((await signIn('target', 'right-pass', '10.1.0.99')).statusCode).toBe(200);
  });

  it('rate limits repeated failures from one address across usernames', async () => {
    for (let attempt = 0; attempt < 30; attempt += 1) {
      await signIn(`ghost${attempt}`, 'wrong-pass', '10.2.0.1');
    }
    const blocked = await signIn('kiran', 'kiran-pass', '10.2.0.1');
    expect(blocked.statusCode).toBe(429);
    // Another address is not affected.
    expect((await signIn('kiran', 'kiran-pass', '10.2.0.2')).statusCode).toBe(200);
  });
});

describe('tokens', () => {
  it('refuses a missing, tampered or unsigned token with 401', async () => {
    const donor = await createDonor(t);
    expect((await t.app.inject({ method: 'GET', url: '/api/users/me' })).json()).toEqual({ detail: 'Not authenticated', code: 'unauthorized' });
    const [header, payload] = donor.token.split('.');
    const forged = Buffer.from(JSON.stringify({ sub: String(donor.id), role: 'ADMIN', ver: 0 })).toString('base64url');
    const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
    for (const token of [`${header}.${forged}.${donor.token.split('.')[2]}`, unsigned, 'garbage']) {
      const response = await t.app.inject({ method: 'GET', url: '/api/users/me', headers: { authorization: `Bearer ${token}` } });
      expect(response.statusCode).toBe(401);
    }
  });

  it('stops a deactivated user at once, and refuses their sign-in', async () => {
    const donor = await createDonor(t);
    expect((await t.app.inject({ method: 'GET', url: '/api/users/me', headers: donor.headers })).statusCode).toBe(200);
    await t.db.updateTable('users').set({ is_active: 0 }).where('id', '=', donor.id).execute();
    const after = await t.app.inject({ method: 'GET', url: '/api/users/me', headers: donor.headers });
    expect(after.statusCode).toBe(401);
    const login = await signIn(donor.username, TEST_PASSWORD, '10.3.0.1');
    expect(login.statusCode).toBe(401);
    expect(login.json().detail).toBe('This account has been deactivated. Please contact the blood bank.');
  });
});

describe('admin bootstrap', () => {
  it('creates admin with a random password once, written to a mode-600 file, and signs in with it', async () => {
    const fresh = await createTestApp();
    try {
      const first = await ensureInitialAdmin(fresh.db, fresh.config);
      expect(first.kind).toBe('created-random');
      const file = path.join(fresh.config.dataDir, INITIAL_ADMIN_PASSWORD_FILE);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const password = /password: (\S+)/.exec(fs.readFileSync(file, 'utf8'))?.[1] ?? '';
      const login = await fresh.app.inject({ method: 'POST', url: '/api/auth/token', payload: { username: 'admin', password } });
      expect(login.json()).toMatchObject({ user_type: 'admin' });
      expect((await ensureInitialAdmin(fresh.db, fresh.config)).kind).toBe('exists');
    } finally {
      await fresh.close();
    }
  });

  it('uses ADMIN_USERNAME and ADMIN_PASSWORD when both are set', async () => {
    const fresh = await createTestApp({ env: { ADMIN_USERNAME: 'chief', ADMIN_PASSWORD: 'chief-pass' } });
    try {
      expect(await ensureInitialAdmin(fresh.db, fresh.config)).toEqual({ kind: 'created-from-env', username: 'chief' });
      const login = await fresh.app.inject({ method: 'POST', url: '/api/auth/token', payload: { username: 'chief', password: 'chief-pass' } });
      expect(login.statusCode).toBe(200);
    } finally {
      await fresh.close();
    }
  });
});

describe('errors and routes', () => {
  it('answers unknown API paths with a JSON 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Not Found: GET /api/nope', code: 'not_found' });
  });

  it('publishes an OpenAPI document generated from the route schemas', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json().paths);
    expect(paths).toEqual(expect.arrayContaining(['/api/health', '/api/stats', '/api/auth/register', '/api/auth/token', '/api/users/me']));
  });

  it("sends the API security headers on JSON answers, refusals included, and helmet's on pages", async () => {
    for (const response of [
      await t.app.inject({ method: 'GET', url: '/api/health' }),
      await t.app.inject({ method: 'GET', url: '/api/stock' }),
    ]) {
      expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    }
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(docs.headers['content-security-policy']).toContain("default-src 'self'");
    expect(docs.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('request logs', () => {
  it('never contain a password, a token or a query value (a reset link, a search), even at trace level', async () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    stream.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
    const logged = await createTestApp({ env: { LOG_LEVEL: 'trace' }, logStream: stream });
    try {
      const password = 'very-secret-password-42';
      const created = await logged.app.inject({ method: 'POST', url: '/api/auth/register', payload: donorBody({ username: 'logcheck', password }) });
      expect(created.statusCode).toBe(201);
      const login = await logged.app.inject({
        method: 'POST', url: '/api/auth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `username=logcheck&password=${password}`,
      });
      const token = login.json().access_token as string;
      await logged.app.inject({ method: 'GET', url: '/api/users/me', headers: { authorization: `Bearer ${token}` } });
      // A password-reset link carries its token in the query: the page's request is logged without it.
      const resetToken = 'n3gvKN-QWihTXW1KubJ8cmTYLHq1jIE7A0yXkzmeZCk';
      await logged.app.inject({ method: 'GET', url: `/reset-password?token=${resetToken}` });
      await logged.app.inject({ method: 'GET', url: `/api/admin/donors?q=logcheck-surname&page=1` });
      const output = lines.join('');
      expect(output).toContain('/api/users/me');
      expect(output).toContain('"/reset-password?token=~"');
      expect(output).toContain('"/api/admin/donors?q=~&page=~"');
      expect(output).not.toContain(password);
      expect(output).not.toContain(token);
      expect(output).not.toContain(resetToken);
      expect(output).not.toContain('logcheck-surname');
    } finally {
      await logged.close();
    }
  });
});
