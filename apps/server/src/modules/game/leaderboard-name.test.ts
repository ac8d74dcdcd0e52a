import { describe, expect, it } from 'vitest';
import { leaderboardName } from './game.service';

/** The name the leaderboard shows other donors: first name and the last name's initial. */
describe('leaderboardName', () => {
  const name = (first_name: string | null, last_name: string | null) =>
    leaderboardName({ first_name, last_name, username: 'donor_1' });

  it('is the first name and the initial of the last', () => {
    expect(name('Asha', 'Kulkarni')).toBe('Asha K.');
    expect(name('Asha', 'kulkarni')).toBe('Asha K.');
    expect(name(null, 'Kulkarni')).toBe('donor_1');
  });

  it('is the first name alone when the last name has no letter, as one-name donors fill the required field', () => {
    expect(name('Murugan', '-')).toBe('Murugan');
    expect(name('முருகன்', '.')).toBe('முருகன்');
    expect(name('Murugan', ' ')).toBe('Murugan');
  });

  it('takes the first letter as it is read, however it was typed, and skips punctuation before it', () => {
    expect(name('Zoé', 'e\u0301mile')).toBe('Zoé E\u0301.');
    expect(name('Zoé', "'Ali")).toBe('Zoé A.');
    expect(name('आशा', 'कुलकर्णी')).toBe('आशा कु.');
  });
});
