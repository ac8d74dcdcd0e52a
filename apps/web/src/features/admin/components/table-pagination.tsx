import { useState } from 'react';
import { Group, Pagination, Text, VisuallyHidden } from '@mantine/core';
import { formatCount } from '@/lib/format';

const CONTROL_LABELS = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
} as const;

interface TablePaginationProps {
  /** What is being paged, for the navigation's name: "Donors". */
  label: string;
  page: number;
  pageSize: number;
  total: number;
  onChange: (page: number) => void;
}

/** "Showing 21–40 of 51" and the page buttons (hidden when everything fits on one page). */
export function TablePagination({ label, page, pageSize, total, onChange }: TablePaginationProps) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  // Not a live region: a screen shows several lists, and every change to their data would read
  // every count at once. Only the page the user turns to in this list is announced.
  const [announced, setAnnounced] = useState('');
  const turnTo = (next: number) => {
    const nextFirst = (next - 1) * pageSize + 1;
    setAnnounced(
      `${label}: page ${next} of ${pages}, showing ${formatCount(nextFirst)}–${formatCount(Math.min(total, next * pageSize))} of ${formatCount(total)}`,
    );
    onChange(next);
  };
  return (
    <Group justify="space-between" align="center" mt="md" gap="sm" wrap="wrap">
      <Text size="sm" c="dimmed">
        Showing {formatCount(first)}–{formatCount(last)} of {formatCount(total)}
      </Text>
      <VisuallyHidden role="status">{announced}</VisuallyHidden>
      {pages > 1 ? (
        <nav aria-label={`${label} pages`}>
          <Pagination
            total={pages}
            value={Math.min(page, pages)}
            onChange={turnTo}
            size="sm"
            gap={4}
            siblings={1}
            boundaries={1}
            getControlProps={(control) => ({ 'aria-label': CONTROL_LABELS[control] })}
            getItemProps={(item) => ({
              'aria-label': `Page ${item}`,
              'aria-current': item === page ? 'page' : undefined,
            })}
          />
        </nav>
      ) : null}
    </Group>
  );
}
