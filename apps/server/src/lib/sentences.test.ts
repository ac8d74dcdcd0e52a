import { describe, expect, it } from 'vitest';
import { asSentence } from './sentences';

describe('asSentence', () => {
  it('ends words that have no ending with a full stop', () => {
    expect(asSentence('The site has no staff for your slot that day')).toBe('The site has no staff for your slot that day.');
    expect(asSentence('  Duplicate request \n')).toBe('Duplicate request.');
  });

  it('keeps an ending that is there, inside quotes or brackets too', () => {
    for (const ended of ['Duplicate request.', 'Really?', 'Call us!', 'See the note (page 2.)', 'He said "no."', 'Wait…']) {
      expect(asSentence(ended)).toBe(ended);
    }
  });
});
