// The root: session and status providers, then setup, sign-in or the shell,
// depending on the session alone.
import { LoginScreen } from './screens/login/login-screen.tsx';
import { SetupScreen } from './screens/setup/setup-screen.tsx';
import { SessionProvider, useSession } from './session/session.tsx';
import { Shell } from './shell/shell.tsx';
import { StatusProvider } from './ui/status.tsx';

/** The whole app. */
export function App() {
  return (
    <StatusProvider>
      <SessionProvider>
        <Gate />
      </SessionProvider>
    </StatusProvider>
  );
}

function Gate() {
  const { state } = useSession();
  switch (state.status) {
    case 'loading':
      return <p class="loading" role="status">Loading…</p>;
    case 'setup':
      return <SetupScreen />;
    case 'signed-out':
      return <LoginScreen expired={state.expired} />;
    default:
      return <Shell />;
  }
}
