import { Badge, Button, Group } from '@mantine/core';
import { formatCount } from '@/lib/format';
import { jumpOnPlainClick } from '@/lib/use-scroll-to-hash';

export interface PartLink {
  /** The id of the part (a ScreenSection's). */
  id: string;
  label: string;
  /** How many rows wait there, once known. */
  count?: number;
}

/**
 * "On this page": a long admin screen's parts, each a link with how many rows it holds. On a phone
 * Manage Donations stacks four lists, 26 screens tall: the testing queue began 11,000 px down.
 */
export function PartLinks({ parts }: { parts: readonly PartLink[] }) {
  return (
    <Group component="nav" aria-label="On this page" gap="xs" wrap="wrap">
      {parts.map((part) => (
        <Button
          key={part.id}
          component="a"
          href={`#${part.id}`}
          onClick={jumpOnPlainClick(part.id)}
          variant="default"
          size="xs"
          rightSection={
            part.count === undefined ? null : (
              <Badge size="sm" variant="light" color="gray" c="dark.6">
                {formatCount(part.count)}
              </Badge>
            )
          }
        >
          {part.label}
        </Button>
      ))}
    </Group>
  );
}
