import { Code, Stack, Text, VisuallyHidden } from '@mantine/core';

const ARRAY_PREVIEW = 8;

function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) {
    const head = value.slice(0, ARRAY_PREVIEW).map(show).join(', ');
    return value.length > ARRAY_PREVIEW
      ? `${head} … (+${value.length - ARRAY_PREVIEW} more, ${value.length} in all)`
      : head || '—';
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** An audit entry's before and after, one line per field that has either. */
export function AuditChanges({ detail }: { detail: unknown }) {
  const record = asRecord(detail);
  const before = asRecord(record?.before);
  const after = asRecord(record?.after);
  if (!before && !after) {
    return record && Object.keys(record).length > 0 ? (
      <Code block>{JSON.stringify(record, null, 1)}</Code>
    ) : (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  }
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return (
    <Stack gap={2} maw={420}>
      {fields.map((field) => {
        const had = before && field in before;
        const has = after && field in after;
        return (
          <Text key={field} size="sm" style={{ overflowWrap: 'anywhere' }}>
            <Text span fw={600}>
              {field.replaceAll('_', ' ')}:
            </Text>{' '}
            {had && has ? (
              <>
                {show(before[field])} <span aria-hidden>→</span> <VisuallyHidden>changed to</VisuallyHidden>{' '}
                {show(after[field])}
              </>
            ) : has ? (
              show(after[field])
            ) : (
              `${show(before?.[field])} (before)`
            )}
          </Text>
        );
      })}
    </Stack>
  );
}
