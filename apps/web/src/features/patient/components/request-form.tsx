import { useMemo } from 'react';
import {
  Alert,
  Button,
  Grid,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconAlertCircle } from '@tabler/icons-react';
import { useForm, useWatch } from 'react-hook-form';
import { BLOOD_GROUPS, isBloodGroup } from '@bloodbank/shared/blood-groups';
import {
  COMPONENT_LABELS,
  COMPONENT_WORDS,
  DEFAULT_COMPONENT,
  type Component,
} from '@bloodbank/shared/components';
import {
  bloodRequestFormSchema,
  type BloodRequest,
  type BloodRequestForm,
  type BloodRequestInput,
} from '@bloodbank/shared/blood-request';
import { MESSAGES, REQUEST_UNITS } from '@bloodbank/shared/constants';
import { bankToday, useBankToday } from '@/lib/bank-today';
import { useAuth } from '@/lib/auth/auth-context';
import { DraftNotice } from '@/components/ui/draft-notice';
import { useFormDraft } from '@/lib/form-draft';
import { applyServerFieldErrors, fieldBinder } from '@/lib/form-errors';
import { failureMessage } from '@/lib/api-client';
import { OfflineNotice } from '@/components/ui/offline-notice';
import { useCreateRequest } from '../api/create-request';
import { useStock } from '../api/get-stock';
import { compatibleUnitsByGroup, CompatibleStock } from './compatible-stock';
import { BankContactLine } from '@/components/ui/bank-contact';
import { unitsText } from '@/lib/format';

const FIELDS = [
  'bloodgroup',
  'component',
  'unit',
  'date',
  'doctorname',
  'hospitaladdress',
  'reason',
] as const;

/** Red cells first: what most patients need, and the default (PRODUCT.md 3.5). */
const COMPONENT_ORDER: Component[] = ['red_cells', 'whole_blood', 'plasma', 'platelets'];
const COMPONENT_OPTIONS = COMPONENT_ORDER.map((component) => ({
  value: component,
  label: COMPONENT_LABELS[component],
}));

const GROUP_OPTIONS = [
  { value: '', label: 'Select blood group', disabled: true },
  ...BLOOD_GROUPS.map((group) => ({ value: group, label: group })),
];

/**
 * The Request Blood form (spec sections 2 and 5): idle, then submitting with the button disabled;
 * `onSubmitted` shows the success state. Beside it (below it on a phone), the compatible stock.
 */
export function RequestForm({ onSubmitted }: { onSubmitted: (request: BloodRequest) => void }) {
  const auth = useAuth();
  // The bank's day, read at each validation: a form left open past midnight moves with the calendar.
  const schema = useMemo(() => bloodRequestFormSchema(() => bankToday()), []);
  const today = useBankToday();
  const form = useForm<BloodRequestForm, unknown, BloodRequestInput>({
    resolver: zodResolver(schema),
    defaultValues: {
      // The patient's own group and doctor, from their registration; both can be changed.
      bloodgroup: (auth.user?.bloodgroup ?? '') as BloodRequestForm['bloodgroup'],
      component: DEFAULT_COMPONENT,
      unit: '1',
      date: '',
      doctorname: auth.user?.doctorname ?? '',
      hospitaladdress: '',
      reason: '',
    },
  });
  // Kept while typing: a reload, or a session that expires before Submit, loses nothing.
  const draft = useFormDraft(form, 'request-blood', { owner: auth.user?.userId ?? null });
  const field = fieldBinder(form);
  const bloodgroup = useWatch({ control: form.control, name: 'bloodgroup' });
  const component = useWatch({ control: form.control, name: 'component' });
  const units = Number(useWatch({ control: form.control, name: 'unit' }));
  // More units asked than one compatible group has on the shelf (a request is filled from one group,
  // PRODUCT.md 3.3): said before sending, never refused for it.
  const stock = useStock();
  const best =
    stock.data && isBloodGroup(bloodgroup)
      ? compatibleUnitsByGroup(stock.data, bloodgroup, component ?? DEFAULT_COMPONENT).reduce<{
          bloodgroup: string;
          units: number;
        } | null>((most, entry) => (most === null || entry.units > most.units ? entry : most), null)
      : null;
  const inStock = best?.units ?? null;
  const shortBy = inStock !== null && Number.isInteger(units) && units > inStock ? units - inStock : 0;

  const submission = useCreateRequest();
  const submit = form.handleSubmit((values) =>
    submission.mutate(values, {
      onSuccess: (request) => {
        draft.clear();
        onSubmitted(request);
      },
      onError: (error) => applyServerFieldErrors(form, error, FIELDS),
    }),
  );
  const busy = submission.isPending;

  return (
    <Grid gutter="lg">
      <Grid.Col span={{ base: 12, md: 7 }}>
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
          <form
            noValidate
            aria-label="Request Blood"
            onSubmit={(event) => {
              submission.reset();
              void submit(event);
            }}
          >
            <Stack gap="md">
              <DraftNotice draft={draft} onStartOver={() => form.reset()} />
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                <NativeSelect
                  label="Blood Group"
                  description="Preset to your own blood group"
                  withAsterisk
                  data={GROUP_OPTIONS}
                  {...field('bloodgroup')}
                />
                <NativeSelect
                  label="Component"
                  description="Red cells unless your doctor asked for another"
                  withAsterisk
                  data={COMPONENT_OPTIONS}
                  {...field('component')}
                />
                <TextInput
                  label="Number of Units"
                  description={`${REQUEST_UNITS.min} to ${REQUEST_UNITS.max} units`}
                  type="number"
                  inputMode="numeric"
                  min={REQUEST_UNITS.min}
                  max={REQUEST_UNITS.max}
                  withAsterisk
                  {...field('unit')}
                />
                <TextInput label="Required Date" type="date" min={today} withAsterisk {...field('date')} />
                <TextInput label="Doctor Name" autoComplete="off" withAsterisk {...field('doctorname')} />
              </SimpleGrid>
              <Textarea
                label="Hospital Address"
                autoComplete="off"
                withAsterisk
                minRows={2}
                autosize
                {...field('hospitaladdress')}
              />
              <Textarea
                label="Reason"
                description="For example the operation or treatment the blood is for"
                withAsterisk
                minRows={3}
                autosize
                {...field('reason')}
              />
              {/* One child of the Stack, so the empty region adds no gap of its own. */}
              <div>
                {/* Mounted empty with the form: a status region inserted with its text already in it is
                  often not read. Said politely as the number is typed, not as an alarm. */}
                <div role="status" data-testid="short-supply-region">
                  {shortBy > 0 && inStock !== null ? (
                    <Alert
                      color="yellow"
                      variant="light"
                      icon={<IconAlertCircle aria-hidden />}
                      role="note"
                      data-testid="short-supply"
                      mb="md"
                    >
                      <Text size="sm" c="dark.8">
                        {inStock === 0 || !best
                          ? `No compatible units of ${COMPONENT_WORDS[component ?? DEFAULT_COMPONENT]} are in stock now.`
                          : `At most ${unitsText(inStock)} of compatible ${COMPONENT_WORDS[component ?? DEFAULT_COMPONENT]} ${inStock === 1 ? 'is' : 'are'} in stock in one group now (${best.bloodgroup}), and a request is filled from one group.`}{' '}
                        You can still send the request: the blood bank will tell you what it can give. If it
                        is urgent, call them.
                      </Text>
                      <BankContactLine mt={4} c="dark.8" />
                    </Alert>
                  ) : null}
                </div>
                {/* Beside the button, where a phone shows it: at the top of the form it was a screen above. */}
                {submission.isError ? (
                  <Alert
                    mb="md"
                    color="red"
                    variant="light"
                    icon={<IconAlertCircle aria-hidden />}
                    role="alert"
                  >
                    {failureMessage(submission.error, MESSAGES.requestSubmitFailed)}
                  </Alert>
                ) : null}
                <OfflineNotice waiting={submission.isPaused} />
                <Button type="submit" size="md" disabled={busy} fullWidth>
                  {busy ? 'Submitting...' : 'Submit Request'}
                </Button>
              </div>
              <Text size="xs" c="dimmed" ta="center">
                Your request stays pending until the blood bank reviews it. You can cancel it from your
                dashboard while it is pending.
              </Text>
            </Stack>
          </form>
        </Paper>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 5 }}>
        <CompatibleStock bloodgroup={bloodgroup} component={component ?? DEFAULT_COMPONENT} />
      </Grid.Col>
    </Grid>
  );
}
