import { OnboardingPage } from '../features/onboarding/onboarding-page';

export function Component() {
  return <OnboardingPage />;
}
