import { describe, expect, it } from 'vitest';
import { createMailBudget } from './mail-budget';

/** The e-mails one address may be sent in an hour (docs/security.md, "Mail bombing"). */
describe('createMailBudget', () => {
  it('allows the limit, in any letter case, then refuses', async () => {
    const budget = createMailBudget(undefined, { points: 2, durationSeconds: 3600 });
    expect(await budget.allows('Asha@Example.org')).toBe(true);
    expect(await budget.allows('asha@example.org ')).toBe(true);
    expect(await budget.allows('ASHA@EXAMPLE.ORG')).toBe(false);
    expect(await budget.allows('ravi@example.org')).toBe(true);
  });

  it('does not count an e-mail given back because it could not be sent (its retry is counted when it goes)', async () => {
    const budget = createMailBudget(undefined, { points: 2, durationSeconds: 3600 });
    expect(await budget.allows('asha@example.org')).toBe(true);
    await budget.refund('asha@example.org');
    expect(await budget.allows('asha@example.org')).toBe(true);
    expect(await budget.allows('asha@example.org')).toBe(true);
    expect(await budget.allows('asha@example.org')).toBe(false);
  });
});
