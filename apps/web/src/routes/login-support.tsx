import { useSearchParams } from 'react-router';
import { LoginSupportPage } from '../features/support/support-pages';

/** /login/support (issue 16 §2): support without a session; `?instance=` fills the workplace name. */
export function Component() {
  const [params] = useSearchParams();
  return <LoginSupportPage instance={params.get('instance') ?? ''} />;
}
