// The signed-in frame: sidebar and main region. Below 768 px the sidebar
// folds into a menu button at the top that opens it over the page.
import { useEffect, useState } from 'preact/hooks';
import { LiveEventsProvider } from '../live/live-events.tsx';
import { useLocation } from '../router/router.tsx';
import { RouterView } from '../router/router-view.tsx';
import { useSignedIn } from '../session/session.tsx';
import { Sidebar } from './sidebar.tsx';

const SIDEBAR_ID = 'sidebar';
const MAIN_ID = 'main';

/** Sidebar plus the current route's screen. */
export function Shell() {
  const { workspace } = useSignedIn();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);

  useEffect(() => setMenuOpen(false), [location.path, workspace]);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setMenuOpen(false);
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  return (
    <LiveEventsProvider workspace={workspace}>
      <div class={menuOpen ? 'shell shell--menu-open' : 'shell'}>
        <a class="skip-link" href={`#${MAIN_ID}`}>
          Skip to content
        </a>
        <header class="topbar">
          <button type="button" class="topbar__menu" aria-expanded={menuOpen} aria-controls={SIDEBAR_ID} onClick={() => setMenuOpen(!menuOpen)}>
            <span aria-hidden="true">☰</span> Menu
          </button>
          <span class="topbar__title">git-cms</span>
        </header>
        <Sidebar id={SIDEBAR_ID} />
        <main id={MAIN_ID} class="main" tabIndex={-1}>
          <RouterView mainId={MAIN_ID} />
        </main>
      </div>
    </LiveEventsProvider>
  );
}
