// The parts a backup can hold, in the words the screens use.
export const PART_LABELS: Record<string, string> = { content_types: 'Content types', entries: 'Entries', media: 'Media files', webhooks: 'Webhooks', users: 'Users, roles and tokens' };
