import { Alert, Anchor, Text } from '@mantine/core';
import { IconRestore } from '@tabler/icons-react';
import type { FormDraft } from '@/lib/form-draft';

/** Says that a form was filled from what the user typed before (lib/form-draft.ts), with a way to start over. */
export function DraftNotice({ draft, onStartOver }: { draft: FormDraft; onStartOver: () => void }) {
  if (!draft.restored) return null;
  return (
    <Alert color="blue" variant="light" icon={<IconRestore aria-hidden />} role="status" py="xs">
      <Text size="sm">
        What you typed before is filled in again.{' '}
        <Anchor
          component="button"
          type="button"
          size="sm"
          fw={600}
          onClick={() => {
            draft.clear();
            onStartOver();
          }}
        >
          Start over
        </Anchor>
      </Text>
    </Alert>
  );
}
