// The shape of the update status in admin responses.
import type { UpdateStatus } from '../../domain/updates/update-service.ts';

/** The update status as GET /admin/api/update and the update actions answer it. */
export function presentUpdateStatus(status: UpdateStatus): UpdateStatus {
  return {
    configured: status.configured,
    state: status.state,
    current_version: status.current_version,
    latest_version: status.latest_version,
    latest: status.latest,
    staged: status.staged,
    installed: status.installed,
    restart_required: status.restart_required,
    message: status.message,
  };
}
