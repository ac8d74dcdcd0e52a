import fc from 'fast-check';

/**
 * Values a careless or malicious client might send in place of a field: wrong types, nulls, empty
 * and huge strings, unicode and control characters, odd numbers, impossible dates, and SQL, HTML
 * and spreadsheet-formula fragments.
 */

export const SQL_FRAGMENTS = [
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '1; DELETE FROM blood_units',
  "admin'--",
  '1 UNION SELECT password_hash FROM users',
  "') ON CONFLICT DO NOTHING; --",
  '%',
  '_',
  '\\',
] as const;

export const MARKUP_FRAGMENTS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  'javascript:alert(1)',
  '=HYPERLINK("http://evil.example","x")',
  '=1+1',
  '@SUM(A1)',
  '{{constructor.constructor("alert(1)")()}}',
  '../../../../etc/passwd',
] as const;

export const IMPOSSIBLE_DATES = [
  '2026-02-30',
  '2026-02-29',
  '2026-04-31',
  '2026-13-01',
  '2026-00-10',
  '0000-00-00',
  '9999-99-99',
  '2026-2-3',
  '20260230',
  '2026-06-01T00:00:00Z',
  '+02026-06-01',
  '-2026-06-01',
  '1900-01-01',
  '9999-12-31',
  'yesterday',
] as const;

export const ODD_NUMBERS = [
  -1,
  0,
  0.5,
  1.5,
  -0.0001,
  2 ** 31,
  2 ** 31 - 1,
  2 ** 53 + 1,
  Number.MAX_SAFE_INTEGER,
  -(2 ** 63),
  1e308,
  5e-324,
] as const;

export const NUMERIC_STRINGS = [
  '1',
  '1.5',
  '-1',
  '1e3',
  '0x10',
  'NaN',
  'Infinity',
  ' 2 ',
  '١٢',
  '2 units',
  '',
] as const;

export const ODD_TEXT = [
  'Ünïcödé',
  '名前',
  '🩸🩸🩸',
  '\u202Eevil',
  'a\u0000b',
  '\u0000',
  '\uFEFF',
  '\uD800',
  'line\r\nbreak',
  ' ',
  '\t\n',
] as const;

const controlCharacters = fc.string({
  unit: fc.integer({ min: 0, max: 31 }).map((code) => String.fromCharCode(code)),
  minLength: 1,
  maxLength: 20,
});

export const hugeString = fc.constantFrom(1_001, 10_000, 200_000).map((length) => 'x'.repeat(length));

/** One hostile value for a field. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(...ODD_NUMBERS),
  fc.constantFrom(...NUMERIC_STRINGS),
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  controlCharacters,
  hugeString,
  fc.constantFrom(...IMPOSSIBLE_DATES),
  fc.constantFrom(...SQL_FRAGMENTS),
  fc.constantFrom(...MARKUP_FRAGMENTS),
  fc.constantFrom(...ODD_TEXT),
  fc.array(fc.oneof(fc.integer(), fc.string(), fc.constantFrom(...ODD_NUMBERS)), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.integer(), fc.string()), { maxKeys: 3 }),
  fc.constant(JSON.parse('{"__proto__": {"isAdmin": true}}') as unknown),
);

/** Field names a client might add to grab something it should not set. */
export const SENSITIVE_EXTRA_FIELDS = [
  'id',
  'status',
  'role',
  'user_type',
  'is_active',
  'token_version',
  'password_hash',
  'bloodgroup',
  'donor_id',
  'patient_id',
  'user_id',
  'points',
  'level',
  'decided_by',
  'request_id',
  '__proto__',
  'constructor',
] as const;

export type HostileBody =
  { kind: 'json'; value: unknown } | { kind: 'raw'; text: string; contentType: string };

/** Bodies built from a valid one: fields replaced by hostile values, removed or added; or something else entirely. */
export function hostileBody(valid: Record<string, unknown>): fc.Arbitrary<HostileBody> {
  const fields = Object.keys(valid);
  const fieldName = fields.length > 0 ? fc.constantFrom(...fields) : fc.string({ maxLength: 8 });
  const mutated = fc
    .record({
      replaced: fc.dictionary(fieldName, hostileValue, { maxKeys: 3 }),
      removed: fc.subarray(fields, { maxLength: Math.min(3, fields.length) }),
      extra: fc.dictionary(
        fc.oneof(fc.constantFrom(...SENSITIVE_EXTRA_FIELDS), fc.string({ maxLength: 10 })),
        hostileValue,
        { maxKeys: 3 },
      ),
    })
    .map(({ replaced, removed, extra }) => {
      const body: Record<string, unknown> = { ...valid };
      for (const field of removed) delete body[field];
      for (const [field, value] of Object.entries(extra)) {
        if (!(field in valid))
          Object.defineProperty(body, field, { value, enumerable: true, configurable: true, writable: true });
      }
      for (const [field, value] of Object.entries(replaced)) body[field] = value;
      return { kind: 'json', value: body } as HostileBody;
    });
  const raw = fc.oneof(
    fc
      .string({ maxLength: 50 })
      .map((text) => ({ kind: 'raw', text, contentType: 'application/json' }) as HostileBody),
    fc
      .constantFrom('{"unit": 1,', '{"a":1}{"b":2}', '[', 'null', '"text"', '{"unit": 1e999999}', '\u0000')
      .map((text) => ({ kind: 'raw', text, contentType: 'application/json' }) as HostileBody),
    fc
      .constantFrom('text/plain', 'application/xml', 'text/csv', 'application/octet-stream')
      .map((contentType) => ({ kind: 'raw', text: JSON.stringify(valid), contentType }) as HostileBody),
  );
  return fc.oneof(
    { weight: 8, arbitrary: mutated },
    {
      weight: 1,
      arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => ({ kind: 'json', value }) as HostileBody),
    },
    { weight: 1, arbitrary: hostileValue.map((value) => ({ kind: 'json', value }) as HostileBody) },
    { weight: 2, arbitrary: raw },
  );
}

/** Query strings: each parameter hostile, missing, repeated, or unexpected; sometimes raw junk. */
export function hostileQuery(valid: Record<string, string>): fc.Arbitrary<string> {
  const names = [...Object.keys(valid), 'page', 'pageSize', 'limit', 'status', 'sort', 'order'];
  const asText = hostileValue.map((value) =>
    typeof value === 'string' ? value : (JSON.stringify(value) ?? ''),
  );
  const encoded = fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 10 })), asText), {
      maxLength: 5,
    })
    .map((pairs) => new URLSearchParams([...Object.entries(valid), ...pairs]).toString());
  const raw = fc.constantFrom(
    'limit=%E0%A4%A',
    'page=%',
    'a[b][c]=1',
    'page[]=1&page[]=2',
    '&&&==',
    'pageSize=1e400',
    'page=1e300',
    'page=9007199254740993',
    'page=2147483648&pageSize=100',
    'patient_id=2147483648',
    'donor_id=99999999999',
    'entity_id=1e20',
    '%00=%00',
  );
  return fc.oneof({ weight: 4, arbitrary: encoded }, { weight: 2, arbitrary: raw });
}

/** Path segments where an id belongs. */
export const hostileIdSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '0',
    '-1',
    '1.5',
    '1e3',
    '0x10',
    'NaN',
    '2147483648',
    '99999999999999999999',
    '9007199254740993',
  ),
  fc.constantFrom(
    "1' OR '1'='1",
    '1;DROP TABLE users',
    '..%2F..%2Fetc%2Fpasswd',
    '%00',
    '%F0%9F%A9%B8',
    '%20',
    'null',
  ),
  fc.string({ minLength: 1, maxLength: 30 }).map((text) => encodeURIComponent(text)),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
);
