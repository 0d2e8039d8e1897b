// API tokens: the list (last use, expiry, what each allows), creating one
// with grants and an optional expiry (the plain token shown once, with a
// copy button and a warning), and revoking one.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api/client.ts';
import { listTokens, revokeToken, type Token } from '../../api/people.ts';
import { formatDateTime } from '../../content/status-badge.tsx';
import { summarizeGrants } from '../../grants/grant-summary.ts';
import { useTitle } from '../../router/router-view.tsx';
import { useSignedIn } from '../../session/session.tsx';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { DataTable } from '../../ui/data-table.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { NewTokenDialog } from './new-token-dialog.tsx';

export function TokensScreen() {
  const { can } = useSignedIn();
  const [tokens, setTokens] = useState<Token[]>();
  const [error, setError] = useState<string>();
  const [isCreating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<Token>();
  const load = () => void listTokens().then(setTokens, (failure: unknown) => setError(failure instanceof ApiError ? failure.message : 'The tokens could not be loaded.'));
  useEffect(load, []);
  useTitle('API tokens');
  if (error) return <p class="screen form-error" role="alert">{error}</p>;
  if (!tokens) return <p class="loading">Loading…</p>;
  const newButton = can('tokens.create') && (
    <Button variant="primary" onClick={() => setCreating(true)}>
      New token
    </Button>
  );
  return (
    <div class="screen screen--wide">
      <header class="page-header">
        <h1>API tokens</h1>
        {newButton}
      </header>
      {tokens.length === 0 ? (
        <EmptyState title="No API tokens yet" action={newButton}>
          A token lets a website, a build or a script read or write content through the API.
        </EmptyState>
      ) : (
        <DataTable
          caption="API tokens"
          stackOnPhone
          rows={tokens}
          rowKey={(token) => token.id}
          columns={[
            { key: 'name', header: 'Name', cell: (token) => token.name },
            { key: 'allows', header: 'Allows', cell: (token) => summarizeGrants(token.permissions).join(' ') },
            { key: 'used', header: 'Last used', cell: (token) => (token.last_used_at ? formatDateTime(token.last_used_at) : 'Never') },
            { key: 'expires', header: 'Expires', cell: (token) => (token.expires_at ? formatDateTime(token.expires_at) : 'Never') },
            {
              key: 'actions',
              header: <span class="visually-hidden">Actions</span>,
              cell: (token) =>
                can('tokens.revoke') && (
                  <Button variant="danger" onClick={() => setRevoking(token)} aria-label={`Revoke ${token.name}`}>
                    Revoke
                  </Button>
                ),
            },
          ]}
        />
      )}
      {isCreating && <NewTokenDialog onClose={() => (setCreating(false), load())} />}
      <ConfirmDialog open={revoking !== undefined} title={`Revoke ${revoking?.name ?? ''}?`} confirmLabel="Revoke the token" danger onConfirm={async () => (await revokeToken(revoking?.id ?? ''), load())} onClose={() => setRevoking(undefined)}>
        Anything using this token is refused from now on. This cannot be undone; make a new token instead.
      </ConfirmDialog>
    </div>
  );
}
