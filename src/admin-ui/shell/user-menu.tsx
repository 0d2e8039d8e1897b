// The user menu at the bottom of the sidebar: who is signed in, their
// profile, and signing out.
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { Link } from '../router/router.tsx';
import { pathTo } from '../routes.ts';
import { useSession, useSignedIn } from '../session/session.tsx';

/** A button naming the user that opens a small menu. */
export function UserMenu() {
  const { user } = useSignedIn();
  const session = useSession();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const profile = pathTo('profile');
  const name = user.display_name || user.username;

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    const onPointer = (event: PointerEvent) => !root.current?.contains(event.target as Node) && setOpen(false);
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  return (
    <div class="user-menu" ref={root}>
      {open && (
        <ul id={menuId} class="user-menu__list">
          {profile && (
            <li>
              <Link href={profile} onClick={() => setOpen(false)}>
                Your profile
              </Link>
            </li>
          )}
          <li>
            <button type="button" onClick={() => void session.signOut()}>
              Sign out
            </button>
          </li>
        </ul>
      )}
      <button type="button" class="user-menu__button" aria-expanded={open} aria-controls={menuId} onClick={() => setOpen(!open)}>
        <span class="avatar" aria-hidden="true">
          {user.avatar_url ? <img src={user.avatar_url} alt="" /> : name.slice(0, 1).toUpperCase()}
        </span>
        <span class="user-menu__name">
          {name}
          <span class="visually-hidden"> (account menu)</span>
        </span>
      </button>
    </div>
  );
}
