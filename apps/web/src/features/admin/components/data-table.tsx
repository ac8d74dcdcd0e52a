import type { Key, ReactNode } from 'react';
import { Table, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconSelector } from '@tabler/icons-react';
import classes from './data-table.module.css';

export interface Column<T> {
  key: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** The server's sort key: the header becomes a sort button. */
  sort?: string;
  /**
   * On phones each cell reads "header: value". `false` leaves the label out: the row's title
   * (first line of the card) and the actions (which are not printed).
   */
  label?: boolean;
  /** The row's title on phones: bold, first. */
  title?: boolean;
  align?: 'left' | 'right' | 'center';
  nowrap?: boolean;
}

export interface SortState {
  by: string;
  order: 'asc' | 'desc';
  onSort: (by: string) => void;
}

export interface DataTableProps<T> {
  /** Names the table for screen readers (a visually hidden caption). */
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => Key;
  sort?: SortState;
  /** Rows that need attention (e.g. a health condition to check) are tinted. */
  highlight?: (row: T) => boolean;
  /** A newer page is loading: the current rows stay, dimmed. */
  busy?: boolean;
  minWidth?: number;
}

/**
 * The one table of the admin screens: sortable headers (aria-sort), a caption, and on phones a
 * card per row instead of a sideways scroll.
 */
export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  sort,
  highlight,
  busy = false,
  minWidth,
}: DataTableProps<T>) {
  const sortable = columns.some((column) => column.sort);
  return (
    <div className={classes.scroller}>
      <Table
        role="table"
        className={classes.table}
        data-busy={busy}
        aria-busy={busy}
        verticalSpacing="sm"
        highlightOnHover
        style={minWidth ? { minWidth } : undefined}
      >
        <caption>
          <VisuallyHidden>{caption}</VisuallyHidden>
        </caption>
        <Table.Thead role="rowgroup" data-sortable={sortable}>
          <Table.Tr role="row">
            {columns.map((column) => (
              <HeaderCell key={column.key} column={column} sort={sort} />
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody role="rowgroup">
          {rows.map((row) => (
            <Table.Tr
              role="row"
              key={rowKey(row)}
              data-row-key={rowKey(row)}
              // Focusable from script only: a screen that adds rows can move focus to the first new one.
              tabIndex={-1}
              className={highlight?.(row) ? classes.highlight : undefined}
            >
              {columns.map((column) => (
                <Table.Td
                  role="cell"
                  key={column.key}
                  data-label={column.label === false || column.title ? undefined : column.header}
                  data-print={isActions(column) ? 'hide' : undefined}
                  className={column.title ? classes.rowTitle : undefined}
                  ta={column.align}
                  style={column.nowrap ? { whiteSpace: 'nowrap' } : undefined}
                >
                  {column.cell(row)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}

/** A column without a label that is not the row's title holds the row's buttons: not printed. */
const isActions = <T,>(column: Column<T>) => column.label === false && !column.title;

function HeaderCell<T>({ column, sort }: { column: Column<T>; sort: SortState | undefined }) {
  if (!column.sort || !sort) {
    return (
      <Table.Th role="columnheader" ta={column.align} data-print={isActions(column) ? 'hide' : undefined}>
        {column.label === false && !column.title ? (
          <VisuallyHidden>{column.header}</VisuallyHidden>
        ) : (
          column.header
        )}
      </Table.Th>
    );
  }
  const active = sort.by === column.sort;
  const Icon = !active ? IconSelector : sort.order === 'asc' ? IconChevronUp : IconChevronDown;
  return (
    <Table.Th
      role="columnheader"
      data-sortable
      ta={column.align}
      aria-sort={active ? (sort.order === 'asc' ? 'ascending' : 'descending') : undefined}
    >
      <UnstyledButton className={classes.sortButton} onClick={() => sort.onSort(column.sort!)}>
        {column.header}
        <Icon size={14} aria-hidden />
      </UnstyledButton>
    </Table.Th>
  );
}
