// The delivery log: every attempt, newest first, with its outcome; the last
// attempt of a delivery that gave up has a "Send again" button.
import { useEffect, useState } from 'preact/hooks';
import { listDeliveries, retryDelivery, type Delivery, type Webhook } from '../../api/operations.ts';
import { formatDateTime } from '../../content/status-badge.tsx';
import { Button } from '../../ui/button.tsx';
import { DataTable } from '../../ui/data-table.tsx';
import { Pager } from '../../ui/pager.tsx';
import { useAction } from '../../ui/status.tsx';

const PAGE_SIZE = 50;

export function DeliveryLog({ webhooks, generation }: { webhooks: Webhook[]; generation: number }) {
  const [deliveries, setDeliveries] = useState<Delivery[]>();
  const [total, setTotal] = useState(0);
  const [offset, setOffset] = useState(0);
  const [reloads, setReloads] = useState(0);
  const retry = useAction({ progress: 'Sending again…', success: 'Queued again.' });
  useEffect(() => {
    listDeliveries({ limit: PAGE_SIZE, offset }).then(({ deliveries: page, meta }) => (setDeliveries(page), setTotal(meta.total)), () => setDeliveries([]));
  }, [offset, generation, reloads]);
  const urlOf = (delivery: Delivery) => webhooks.find((hook) => hook.id === delivery.webhook_id)?.url ?? delivery.url;
  return (
    <section aria-labelledby="deliveries-title" class="deliveries">
      <header class="page-header">
        <h2 id="deliveries-title">Deliveries</h2>
        <Button onClick={() => setReloads((n) => n + 1)}>Refresh</Button>
      </header>
      {deliveries?.length === 0 ? (
        <p class="field__hint">No deliveries yet. Send a test, or change some content.</p>
      ) : (
        deliveries && (
          <DataTable
            caption="Delivery attempts"
            rows={deliveries}
            rowKey={(delivery) => `${delivery.id}-${delivery.attempt}`}
            columns={[
              { key: 'when', header: 'When', cell: (delivery) => formatDateTime(delivery.attempted_at) },
              { key: 'event', header: 'Event', cell: (delivery) => delivery.event },
              { key: 'to', header: 'To', cell: (delivery) => <span class="break">{urlOf(delivery)}</span> },
              { key: 'result', header: 'Result', cell: (delivery) => (delivery.ok ? `Delivered (${delivery.status_code})` : delivery.error ?? 'Failed') },
              { key: 'time', header: 'Took', cell: (delivery) => `${delivery.duration_ms} ms` },
              { key: 'attempt', header: 'Attempt', cell: (delivery) => (delivery.next_attempt_at ? `${delivery.attempt}, next ${formatDateTime(delivery.next_attempt_at)}` : String(delivery.attempt)) },
              {
                key: 'actions',
                header: <span class="visually-hidden">Actions</span>,
                cell: (delivery) =>
                  !delivery.ok &&
                  delivery.next_attempt_at === null && (
                    <Button onClick={() => void retry.run(() => retryDelivery(delivery.id)).then(() => setTimeout(() => setReloads((n) => n + 1), 500))} aria-label={`Send delivery ${delivery.id} again`}>
                      Send again
                    </Button>
                  ),
              },
            ]}
          />
        )
      )}
      <Pager label="Delivery pages" offset={offset} limit={PAGE_SIZE} total={total} onOffset={setOffset} />
    </section>
  );
}
