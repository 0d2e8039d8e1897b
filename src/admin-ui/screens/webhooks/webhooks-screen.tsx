// Webhooks: the receivers (URL, events, secret, on/off) with a test button
// each, and the delivery log with status, response code, duration and
// retries, where a delivery that gave up can be sent again.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api/client.ts';
import { listWebhooks, saveWebhooks, testWebhook, type Webhook } from '../../api/operations.ts';
import { useTitle } from '../../router/router-view.tsx';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { DataTable } from '../../ui/data-table.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { useAction } from '../../ui/status.tsx';
import { DeliveryLog } from './delivery-log.tsx';
import { WebhookDialog } from './webhook-dialog.tsx';
import { inputsOf } from './webhook-inputs.ts';

export function WebhooksScreen() {
  const [webhooks, setWebhooks] = useState<Webhook[]>();
  const [events, setEvents] = useState<string[]>([]);
  const [error, setError] = useState<string>();
  const [editing, setEditing] = useState<Webhook | 'new'>();
  const [removing, setRemoving] = useState<Webhook>();
  const [logGeneration, setLogGeneration] = useState(0);
  const test = useAction({ progress: 'Sending a test delivery…', success: 'Test delivery queued: see the log below.' });
  const load = () =>
    void listWebhooks().then(
      (list) => (setWebhooks(list.webhooks), setEvents(list.events)),
      (failure: unknown) => setError(failure instanceof ApiError ? failure.message : 'The webhooks could not be loaded.'),
    );
  useEffect(load, []);
  useTitle('Webhooks');
  if (error) return <p class="screen form-error" role="alert">{error}</p>;
  if (!webhooks) return <p class="loading">Loading…</p>;
  const newButton = (
    <Button variant="primary" onClick={() => setEditing('new')}>
      New webhook
    </Button>
  );
  return (
    <div class="screen screen--wide">
      <header class="page-header">
        <h1>Webhooks</h1>
        {newButton}
      </header>
      {webhooks.length === 0 ? (
        <EmptyState title="No webhooks yet" action={newButton}>
          A webhook tells another service (a site build, a chat) when content changes.
        </EmptyState>
      ) : (
        <DataTable
          caption="Webhooks"
          stackOnPhone
          rows={webhooks}
          rowKey={(hook) => hook.id}
          columns={[
            { key: 'url', header: 'Sends to', cell: (hook) => <span class="break">{hook.url}</span> },
            { key: 'events', header: 'When', cell: (hook) => hook.events.join(', ') },
            { key: 'state', header: 'State', cell: (hook) => `${hook.enabled ? 'On' : 'Off'}${hook.batch ? ', batched' : ''}${hook.has_secret ? ', signed' : ''}` },
            {
              key: 'actions',
              header: <span class="visually-hidden">Actions</span>,
              cell: (hook) => (
                <span class="row-actions">
                  <Button onClick={() => void test.run(() => testWebhook(hook.id)).then(() => setTimeout(() => setLogGeneration((n) => n + 1), 500))} aria-label={`Send a test to ${hook.url}`}>
                    Send a test
                  </Button>
                  <Button onClick={() => setEditing(hook)} aria-label={`Edit ${hook.url}`}>
                    Edit
                  </Button>
                  <Button variant="danger" onClick={() => setRemoving(hook)} aria-label={`Remove ${hook.url}`}>
                    Remove
                  </Button>
                </span>
              ),
            },
          ]}
        />
      )}
      <DeliveryLog webhooks={webhooks} generation={logGeneration} />
      {editing && <WebhookDialog webhook={editing === 'new' ? undefined : editing} all={webhooks} events={events} onClose={() => setEditing(undefined)} onSaved={(list) => (setWebhooks(list), setEditing(undefined))} />}
      <ConfirmDialog
        open={removing !== undefined}
        title="Remove this webhook?"
        confirmLabel="Remove the webhook"
        danger
        onConfirm={async () => setWebhooks(await saveWebhooks(inputsOf(webhooks.filter((hook) => hook.id !== removing?.id))))}
        onClose={() => setRemoving(undefined)}
      >
        {removing?.url} gets nothing more, deliveries still waiting included.
      </ConfirmDialog>
    </div>
  );
}
