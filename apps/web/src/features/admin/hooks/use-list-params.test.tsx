import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen } from '@/test/render';
import { useListParams } from './use-list-params';

function List() {
  const { values, page, update } = useListParams({ search: '', sort: 'created_at' });
  return (
    <>
      <p>
        {values.search || 'everyone'}, page {page}
      </p>
      <button onClick={() => update({ search: 'asha' })}>Search asha</button>
      <button onClick={() => update({ search: 'ravi' })}>Search ravi</button>
    </>
  );
}

describe('useListParams', () => {
  it('goes back to page 1 when a filter changes, and stays on the page when it is set to what it was', async () => {
    const { user, router } = renderScreen(<List />, {
      path: '/list',
      initialPath: '/list?search=asha&page=3',
    });
    expect(screen.getByText('asha, page 3')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Search asha' }));
    expect(router.state.location.search).toBe('?search=asha&page=3');
    expect(screen.getByText('asha, page 3')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Search ravi' }));
    expect(router.state.location.search).toBe('?search=ravi');
    expect(screen.getByText('ravi, page 1')).toBeInTheDocument();
  });
});
