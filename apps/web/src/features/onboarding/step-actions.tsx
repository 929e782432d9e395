import { Alert, Button, Group } from '@mantine/core';

/** Back and next of a wizard step; `error` is a message of the step that no input shows. */
export function StepActions({ onBack, pending = false, nextLabel = 'Next', error }: { onBack?: () => void; pending?: boolean; nextLabel?: string; error?: string }) {
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
            Back
          </Button>
        ) : (
          <span />
        )}
        <Button type="submit" loading={pending}>
          {nextLabel}
        </Button>
      </Group>
    </>
  );
}
