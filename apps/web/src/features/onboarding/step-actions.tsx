import { Alert, Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Back and next of a wizard step; `error` is a message of the step that no input shows. */
export function StepActions({ onBack, pending = false, nextLabel, error }: { onBack?: () => void; pending?: boolean; nextLabel?: string; error?: string }) {
  const { t } = useTranslation();
  return (
    <>
      {error ? (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      ) : null}
      <Group justify="space-between" mt="md">
        {onBack ? (
          <Button variant="default" onClick={onBack}>
            {t('Back')}
          </Button>
        ) : (
          <span />
        )}
        <Button type="submit" loading={pending}>
          {nextLabel ?? t('Next')}
        </Button>
      </Group>
    </>
  );
}
