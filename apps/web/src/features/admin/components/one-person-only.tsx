import { Button, Group, Paper, Text } from '@mantine/core';
import { IconUser } from '@tabler/icons-react';

/** The person id in a list's URL (`?donor=11`), or undefined when there is none or it is no id. */
export function personIdOf(value: string): number | undefined {
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/**
 * Above a list narrowed to one donor's donations or one patient's requests (a person's details link
 * here): whose they are, and the way back to everyone's.
 */
export function OnePersonOnly({
  what,
  name,
  clearLabel,
  onClear,
}: {
  /** "donations", "requests". */
  what: string;
  name: string;
  clearLabel: string;
  onClear: () => void;
}) {
  return (
    <Paper withBorder radius="md" p="sm" mb="sm" bg="blue.0">
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Group gap="xs" wrap="nowrap">
          <IconUser size={18} aria-hidden />
          <Text size="sm">
            Only the {what} of <strong>{name}</strong>.
          </Text>
        </Group>
        <Button size="xs" variant="default" onClick={onClear}>
          {clearLabel}
        </Button>
      </Group>
    </Paper>
  );
}
