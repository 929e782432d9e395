import { Text } from '@mantine/core';

/** Passkeys (WebAuthn) of the profile: filled in by the passkey step of issue #3. */
export function PasskeySection() {
  return <Text c="dimmed">Passkeys are not available yet.</Text>;
}
