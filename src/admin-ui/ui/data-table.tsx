// A table with a sticky header and sortable columns (aria-sort on the
// header, a button per sortable column). Rows and cells come from the caller;
// data stays where the screen keeps it (usually the URL's query).
import type { ComponentChildren } from 'preact';

/** One column: its header, how a row's cell is drawn, and the sort key when sortable. */
export interface Column<Row> {
  key: string;
  /** The header: text, or a control such as a "select all" checkbox. */
  header: ComponentChildren;
  cell: (row: Row) => ComponentChildren;
  /** The API's sort field for this column (e.g. `updated_at`); absent when the column cannot be sorted. */
  sortKey?: string;
}

/** The current sort: a field and a direction. */
export interface TableSort {
  field: string;
  order: 'asc' | 'desc';
}

export interface DataTableProps<Row> {
  /** Names the table for assistive technology. */
  caption: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  sort?: TableSort;
  /** Called with the new sort when a sortable header is pressed. */
  onSort?: (sort: TableSort) => void;
  /**
   * Below 768 px each row becomes a block of "header: value" lines with its
   * buttons last, so no action hides past a phone's edge. For short lists
   * with row actions; long lists keep the table, which scrolls in its frame.
   */
  stackOnPhone?: boolean;
}

/** A scrollable table whose header stays in view. */
export function DataTable<Row>({ caption, columns, rows, rowKey, sort, onSort, stackOnPhone }: DataTableProps<Row>) {
  return (
    <div class={stackOnPhone ? 'table-wrap table-wrap--stack' : 'table-wrap'}>
      <table class="table">
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => {
              const active = sort && column.sortKey === sort.field;
              const ariaSort = active ? (sort.order === 'asc' ? 'ascending' : 'descending') : undefined;
              return (
                <th key={column.key} scope="col" aria-sort={ariaSort}>
                  {column.sortKey && onSort ? (
                    <button
                      type="button"
                      class="table__sort"
                      onClick={() => onSort({ field: column.sortKey as string, order: active && sort.order === 'asc' ? 'desc' : 'asc' })}
                    >
                      {column.header}
                      <span aria-hidden="true">{active ? (sort.order === 'asc' ? ' ▲' : ' ▼') : ''}</span>
                    </button>
                  ) : (
                    column.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                // A stacked row shows each value under its column's header (styles.css).
                <td key={column.key} data-label={stackOnPhone && typeof column.header === 'string' ? column.header : undefined}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
