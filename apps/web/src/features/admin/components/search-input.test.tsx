import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { SearchInput } from './search-input';

const afterTheTypingPause = () => new Promise((resolve) => setTimeout(resolve, 450));

function renderSearch() {
  const onChange = vi.fn();
  const { user } = renderScreen(<SearchInput label="Search donors" value="" onChange={onChange} />);
  return { onChange, user, box: screen.getByLabelText('Search donors') };
}

describe('SearchInput', () => {
  it('searches once the admin pauses typing', async () => {
    const { onChange, user, box } = renderSearch();

    await user.type(box, 'asha');
    expect(onChange).not.toHaveBeenCalled();
    await afterTheTypingPause();
    expect(onChange.mock.calls).toEqual([['asha']]);
  });

  it('searches at once on Enter, and the typing does not search again after it', async () => {
    const { onChange, user, box } = renderSearch();

    await user.type(box, 'asha{Enter}');
    expect(onChange.mock.calls).toEqual([['asha']]);
    // A second send would take the list back to page 1 after the admin had paged on.
    await afterTheTypingPause();
    expect(onChange.mock.calls).toEqual([['asha']]);
  });

  it('clears at once, and the typing does not search again after it', async () => {
    const { onChange, user, box } = renderSearch();

    await user.type(box, 'ash');
    await user.click(screen.getByRole('button', { name: 'Clear the search box' }));
    expect(onChange.mock.calls).toEqual([['']]);
    expect(box).toHaveValue('');
    await afterTheTypingPause();
    expect(onChange.mock.calls).toEqual([['']]);
  });
});
