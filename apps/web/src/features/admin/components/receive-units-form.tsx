import { useState } from 'react';
import { Button, NativeSelect, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { receiveUnitsSchema, RECEIVE_UNITS_MAX } from '@bloodbank/shared/admin';
import { BLOOD_GROUPS } from '@bloodbank/shared/blood-groups';
import { COMPONENT_WORDS, DEFAULT_COMPONENT, type Component } from '@bloodbank/shared/components';
import { bankToday, useBankToday } from '@/lib/bank-today';
import { ApiError, errorMessage } from '@/lib/api-client';
import { applyServerFieldErrors, fieldBinder } from '@/lib/form-errors';
import { useReceiveUnits } from '../api/receive-units';
import { formatDate, unitsText } from '@/lib/format';
import { COMPONENT_OPTIONS } from './component-options';
import { SectionCard } from './section-card';
import { DANGER } from '../tones';
import { notify } from '../notify';
import { useShelfLives } from '../api/use-shelf-lives';
import { BLOOD_ANCHORS } from '../anchors';
import { busyButtonProps } from '@/lib/busy-button';

const schema = receiveUnitsSchema(() => bankToday());
type FormInput = z.input<typeof schema>;
type FormOutput = z.output<typeof schema>;
const FIELDS = ['bloodgroup', 'component', 'count', 'collected_on'] as const;

const GROUP_OPTIONS = [
  { value: '', label: 'Select blood group', disabled: true },
  ...BLOOD_GROUPS.map((group) => ({ value: group, label: group })),
];

/** "Shelf life of plasma: 365 days after collection." (the defaults, said so, until the server's are known). */
export function shelfLifeText(component: Component, shelfLives: ReturnType<typeof useShelfLives>): string {
  const days = shelfLives.days[component];
  const what = shelfLives.configured ? 'Shelf life' : 'Default shelf life';
  return `${what} of ${COMPONENT_WORDS[component]}: ${days} ${days === 1 ? 'day' : 'days'} after collection.`;
}

/** Units received by hand (from another bank, a blood drive): group, component, count, collection date. */
export function ReceiveUnitsForm() {
  const receive = useReceiveUnits();
  const shelfLives = useShelfLives();
  const today = useBankToday();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(schema),
    defaultValues: {
      bloodgroup: '' as FormInput['bloodgroup'],
      component: DEFAULT_COMPONENT,
      count: '1',
      collected_on: today,
    },
  });
  const field = fieldBinder(form);
  const component = useWatch({ control: form.control, name: 'component' }) ?? DEFAULT_COMPONENT;

  const submit = form.handleSubmit((values) => {
    setFailure(null);
    receive.mutate(values, {
      onSuccess: ({ units }) => {
        notify({
          title: 'Units received',
          message: `${unitsText(units.length)} of ${values.bloodgroup} ${COMPONENT_WORDS[values.component]} added; they expire on ${formatDate(units[0]?.expires_on)}.`,
        });
        form.reset({
          bloodgroup: values.bloodgroup,
          component: values.component,
          count: '1',
          collected_on: values.collected_on,
        });
      },
      onError: (error) => {
        applyServerFieldErrors(form, error, FIELDS);
        const onFields = error instanceof ApiError && FIELDS.some((name) => error.errors[name]);
        if (!onFields) setFailure(errorMessage(error, 'The units could not be received. Please try again.'));
      },
    });
  });

  return (
    <SectionCard title="Receive Units" fill>
      <form
        id={BLOOD_ANCHORS.receiveUnits}
        noValidate
        aria-label="Receive units"
        onSubmit={(event) => {
          if (receive.isPending) event.preventDefault();
          else void submit(event);
        }}
      >
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <NativeSelect label="Blood Group" withAsterisk data={GROUP_OPTIONS} {...field('bloodgroup')} />
            <NativeSelect label="Component" withAsterisk data={COMPONENT_OPTIONS} {...field('component')} />
            <TextInput
              label="Number of units"
              type="number"
              inputMode="numeric"
              min={1}
              max={RECEIVE_UNITS_MAX}
              withAsterisk
              {...field('count')}
            />
            <TextInput
              label="Collection date"
              type="date"
              max={today}
              withAsterisk
              {...field('collected_on')}
            />
          </SimpleGrid>
          <Text size="sm" c="dimmed" aria-live="polite" data-testid="receive-shelf-life">
            {shelfLifeText(component, shelfLives)}
          </Text>
          {failure ? (
            <Text role="alert" c={DANGER} size="sm">
              {failure}
            </Text>
          ) : null}
          <Button type="submit" {...busyButtonProps(receive.isPending)} style={{ alignSelf: 'flex-start' }}>
            {receive.isPending ? 'Receiving...' : 'Receive units'}
          </Button>
        </Stack>
      </form>
    </SectionCard>
  );
}
