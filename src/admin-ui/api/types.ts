// The shapes the admin API sends (SPEC.md and API.md), written out for the
// app: it imports nothing from the server's sources.

/** A user record (API.md "Admin session"). */
export interface User {
  id: string;
  username: string;
  display_name: string;
  email: string;
  role: string;
  avatar_url: string | null;
  created_at: string;
  updated_at: string;
}

/** Every known action → whether the user may do it on its whole area (GET /me, `meta.can`). */
export type Capabilities = Record<string, boolean>;

/** The meta of GET /me. */
export interface MeMeta {
  csrf_token?: string;
  can: Capabilities;
  workspace: string;
}

/** A workspace (GET /workspaces). */
export interface Workspace {
  slug: string;
  label: string;
  archived: boolean;
  /** The built-in or configured default workspace: it can never be archived. */
  protected: boolean;
  type_order: string[];
  created_at: string;
  updated_at: string;
}

/** A field definition of a content type (API.md "Field definitions"). */
export interface FieldDefinition {
  type: string;
  label?: string;
  required?: boolean;
  unique?: boolean;
  default?: unknown;
  [option: string]: unknown;
}

/** A content type (SPEC "Content type"). */
export interface ContentType {
  name: string;
  label: string;
  icon: string;
  singleton: boolean;
  visibility: 'public' | 'private';
  slug_field: string;
  slug_source: string;
  locales: string[];
  default_locale: string;
  fields: Record<string, FieldDefinition>;
}

/** One live update (GET /events): the change, where and when; `actor` is absent for commits made with git. */
export interface LiveEvent {
  event: string;
  workspace: string;
  occurred_at: string;
  actor?: string;
  /** Entry events `{ type, id, slug }`, type events `{ type }`, media events `{ filename }`. */
  data: Record<string, string>;
}

/** The statuses of an entry (SPEC "Entry"). */
export type EntryStatus = 'draft' | 'published' | 'scheduled' | 'protected' | 'archived';

/** An entry as the admin API sends it: media fields hold filenames, every status is visible. */
export interface Entry {
  id: string;
  slug: string;
  type: string;
  status: EntryStatus;
  title: string;
  published_at: string | null;
  created_at: string;
  updated_at: string;
  author_id?: string;
  updated_by?: string;
  data: Record<string, unknown>;
  /** Localized types: the locale these values are in (the fallback when the requested one has no translation). */
  locale?: string;
  /** Localized types: the locales this entry has saved values in. */
  translations?: string[];
}

/** The meta of an entry list. */
export interface ListMeta {
  total: number;
  limit: number;
  offset: number;
  sort?: string;
  order?: 'asc' | 'desc';
}

/** Someone who can write entries (GET /authors). */
export interface Author {
  id: string;
  name: string;
}
