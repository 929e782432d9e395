import { Button, Group } from '@mantine/core';

export function StepActions({ onBack, pending = false, nextLabel = 'Next' }: { onBack?: () => void; pending?: boolean; nextLabel?: string }) {
  return (
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
  );
}
