// Configuration: environment variables and command-line flags become one
// validated, frozen Config. This is the only module that reads process.env.
import path from 'node:path';
import { findPackageRoot } from '../lib/package-root.ts';

/** Request size limits. */
export interface Limits {
  /** Largest JSON body accepted, in bytes. */
  jsonBodyBytes: number;
  /** Largest single uploaded file, in bytes. */
  uploadFileBytes: number;
  /** Most files in one upload request. */
  uploadFiles: number;
}

/** Media library settings. */
export interface MediaSettings {
  /** Upload allow-list: media groups (`image`, `video`, `audio`, `pdf`, `office`, `archive`, `text`) and/or MIME types. */
  allowedTypes: string[];
  /** Keep a copy of every public file in the content repo at `{ws}/public/media/` for sites built from the repo (`CMS_MEDIA_IN_REPO`, default on; docs/static-sites.md). */
  inRepo: boolean;
  /** The most bytes transformed images (`?w=…` on file URLs) may take in cache/variants/; least recently used ones go first. */
  variantCacheBytes: number;
}

/** Webhook delivery settings. */
export interface WebhookSettings {
  /** Per-attempt timeout in milliseconds. */
  timeoutMs: number;
  /** Delay before the first retry; each further retry waits twice as long. */
  retryBaseMs: number;
  /** Attempts in all, the first one included. */
  maxAttempts: number;
}

/** Limits for backup archives read back (uploads and restores). */
export interface BackupLimits {
  /** Most entries (files and folders) in one archive. */
  maxFiles: number;
  /** Most bytes all entries may expand to. */
  maxBytes: number;
}

/** Whether this node owns the content (`primary`) or follows one and forwards writes to it (`replica`). */
export type NodeRole = 'primary' | 'replica';

/**
 * How the server keeps the content repository's git files, and git as a peer:
 * the CLI, the upstream kept in sync, the sync interval (docs/deployment.md).
 */
export interface GitSettings {
  /** Write `.git/index` as git's split index (smaller writes; libgit2, JGit and isomorphic-git cannot read it). */
  splitIndex: boolean;
  /** Pack objects in the background with the git CLI. */
  packing: boolean;
  /** The git executable (`CMS_GIT_PATH`, default `git` on the PATH). */
  bin: string;
  /**
   * The environment git commands run in: the server's own without `CMS_*`
   * settings (so no secret of ours reaches git or a hook) and without `GIT_*`
   * variables that would point git at another repository.
   */
  env: Readonly<Record<string, string>>;
  /** The upstream repository: an http(s) URL or an absolute local path; undefined when there is none. */
  upstream: string | undefined;
  /** Sent as the HTTP Basic password to an http(s) upstream; never logged or shown. */
  upstreamToken: string | undefined;
  /** The upstream branch the content repo's branch syncs with; undefined means the same name as the local branch. */
  branch: string | undefined;
  /** Milliseconds between fetches from the upstream (and a replica's fallback poll of its primary). */
  syncIntervalMs: number;
}

/** The validated, frozen settings every other module receives as an argument. */
export interface Config {
  host: string;
  port: number;
  /** Absolute data root holding content/, media/, cache/ and state/. */
  dataDir: string;
  /** Public base URL without a trailing slash, or undefined to derive it per request. */
  baseUrl: string | undefined;
  /** Honour X-Forwarded-Proto/Host when deriving the base URL. */
  trustProxy: boolean;
  defaultWorkspace: string;
  /** Include password and token hashes in backups. */
  backupIncludeSecrets: boolean;
  /** Seconds between checks of the content repo for commits made outside the server. */
  watchIntervalMs: number;
  /** Idle session lifetime in milliseconds. */
  sessionIdleMs: number;
  /** Milliseconds between checks for scheduled entries whose publish time has passed. */
  schedulerIntervalMs: number;
  logLevel: 'silent' | 'error' | 'info';
  limits: Limits;
  media: MediaSettings;
  webhooks: WebhookSettings;
  backups: BackupLimits;
  /** URL of the update feed (`{ version, url, sha256, notes }`), or undefined when updates are not configured. */
  updateFeed: string | undefined;
  /** Folder that installed releases are unpacked into, each in `{version}/`. */
  releasesDir: string;
  /** The built admin web app (index.html and assets/), served at /admin. */
  adminAppDir: string;
  /** Milliseconds between heartbeats on the admin live-event stream. */
  eventsHeartbeatMs: number;
  role: NodeRole;
  /** A replica's primary (its base URL, no trailing slash); undefined on a primary. */
  primaryUrl: string | undefined;
  /** How long a replica waits on a silent primary before a forwarded request is 503 primary_unavailable. */
  primaryTimeoutMs: number;
  git: GitSettings;
  /** NODE_OPTIONS as node was started with it: V8 flags chosen there are kept (lib/heap-growth.ts). */
  nodeOptions: string;
}

/** Where loadConfig() reads settings; tests pass their own instead of process.env. */
export interface ConfigSources {
  env?: Record<string, string | undefined>;
  /** Parsed command-line flags (`--port`, `--host`, `--data`, `--base-url`). */
  flags?: Record<string, string | undefined>;
  /** Folder used when no data dir is configured: the project root. */
  cwd?: string;
}

/** A malformed setting; the message names it, and the CLI prints it without a stack. */
export class ConfigError extends Error {}

const WORKSPACE_NAME = /^[a-z0-9-]{1,64}$/;

/**
 * How to name a setting in a message: the flag when the user typed it
 * (`--port`), otherwise the environment variable (`PORT`).
 */
export function settingName(sources: ConfigSources, flag: string, variable: string): string {
  return sources.flags?.[flag] !== undefined ? `--${flag}` : variable;
}

/**
 * Builds the Config from flags (first), then env, then defaults.
 * Throws ConfigError naming the setting when a value is malformed.
 */
export function loadConfig(sources: ConfigSources = {}): Config {
  const env = sources.env ?? process.env;
  const flags = sources.flags ?? {};
  const pick = (flag: string, name: string): string | undefined => flags[flag] ?? env[name] ?? undefined;
  const nameOf = (flag: string, name: string): string => settingName(sources, flag, name);
  const cwd = sources.cwd ?? process.cwd();

  const dataDir = path.resolve(cwd, pick('data', 'CMS_DATA_DIR') ?? '.');
  const port = parseInteger(pick('port', 'PORT') ?? '3000', nameOf('port', 'PORT'), 0, 65535);
  const defaultWorkspace = env.CMS_DEFAULT_WORKSPACE ?? 'default';
  if (!WORKSPACE_NAME.test(defaultWorkspace)) {
    throw new ConfigError('CMS_DEFAULT_WORKSPACE must be lowercase letters, digits and hyphens.');
  }
  const baseUrl = parseHttpUrl(pick('base-url', 'CMS_BASE_URL'), nameOf('base-url', 'CMS_BASE_URL'));
  // An empty CMS_UPDATE_FEED switches updates off, like leaving it unset.
  const updateFeed = parseHttpUrl(env.CMS_UPDATE_FEED || undefined, 'CMS_UPDATE_FEED');
  const logLevel = parseLogLevel(env.CMS_LOG_LEVEL ?? 'info');
  const role = parseRole(env.CMS_ROLE || 'primary');
  const primaryUrl = parseHttpUrl(env.CMS_PRIMARY_URL || undefined, 'CMS_PRIMARY_URL')?.replace(/\/+$/, '');
  if (role === 'replica' && primaryUrl === undefined) throw new ConfigError('CMS_ROLE=replica needs CMS_PRIMARY_URL, the base URL of the primary.');
  // A replica follows its primary's repository unless told otherwise.
  const upstream = parseUpstream(env.CMS_GIT_UPSTREAM || (role === 'replica' ? `${primaryUrl}/git/content.git` : undefined), cwd);

  return deepFreeze({
    host: pick('host', 'HOST') ?? '127.0.0.1',
    port,
    dataDir,
    baseUrl: baseUrl?.replace(/\/+$/, ''),
    trustProxy: env.CMS_TRUST_PROXY === '1',
    defaultWorkspace,
    backupIncludeSecrets: env.CMS_BACKUP_INCLUDE_SECRETS === '1',
    watchIntervalMs: parseInteger(env.CMS_WATCH_INTERVAL_MS ?? '1000', 'CMS_WATCH_INTERVAL_MS', 50, 60_000),
    schedulerIntervalMs: parseInteger(env.CMS_SCHEDULER_INTERVAL_MS ?? '30000', 'CMS_SCHEDULER_INTERVAL_MS', 10, 3_600_000),
    sessionIdleMs: parseInteger(env.CMS_SESSION_IDLE_MINUTES ?? '120', 'CMS_SESSION_IDLE_MINUTES', 1, 525_600) * 60_000,
    logLevel,
    limits: {
      jsonBodyBytes: parseInteger(env.CMS_MAX_JSON_BYTES ?? String(1024 * 1024), 'CMS_MAX_JSON_BYTES', 1024, 1024 ** 3),
      uploadFileBytes: parseInteger(env.CMS_MAX_UPLOAD_BYTES ?? String(50 * 1024 * 1024), 'CMS_MAX_UPLOAD_BYTES', 1024, 1024 ** 4),
      uploadFiles: parseInteger(env.CMS_MAX_UPLOAD_FILES ?? '20', 'CMS_MAX_UPLOAD_FILES', 1, 1000),
    },
    media: {
      allowedTypes: parseList(env.CMS_MEDIA_TYPES ?? 'image,video,audio,pdf,office,archive,text', 'CMS_MEDIA_TYPES'),
      inRepo: env.CMS_MEDIA_IN_REPO !== '0',
      variantCacheBytes: parseInteger(env.CMS_MEDIA_CACHE_BYTES ?? String(1024 ** 3), 'CMS_MEDIA_CACHE_BYTES', 1024, 1024 ** 5),
    },
    webhooks: {
      timeoutMs: parseInteger(env.CMS_WEBHOOK_TIMEOUT_MS ?? '10000', 'CMS_WEBHOOK_TIMEOUT_MS', 100, 120_000),
      retryBaseMs: parseInteger(env.CMS_WEBHOOK_RETRY_BASE_MS ?? '30000', 'CMS_WEBHOOK_RETRY_BASE_MS', 1, 3_600_000),
      maxAttempts: parseInteger(env.CMS_WEBHOOK_MAX_ATTEMPTS ?? '5', 'CMS_WEBHOOK_MAX_ATTEMPTS', 3, 20),
    },
    backups: {
      maxFiles: parseInteger(env.CMS_BACKUP_MAX_FILES ?? '10000', 'CMS_BACKUP_MAX_FILES', 10, 10_000_000),
      maxBytes: parseInteger(env.CMS_BACKUP_MAX_BYTES ?? String(4 * 1024 ** 3), 'CMS_BACKUP_MAX_BYTES', 1024, 1024 ** 5),
    },
    updateFeed,
    releasesDir: path.resolve(cwd, env.CMS_RELEASES_DIR ?? path.join(dataDir, 'releases')),
    eventsHeartbeatMs: parseInteger(env.CMS_EVENTS_HEARTBEAT_MS ?? '15000', 'CMS_EVENTS_HEARTBEAT_MS', 100, 300_000),
    adminAppDir: path.resolve(cwd, env.CMS_ADMIN_APP_DIR ?? path.join(findPackageRoot(import.meta.url), 'dist', 'admin')),
    role,
    primaryUrl,
    primaryTimeoutMs: parseInteger(env.CMS_PRIMARY_TIMEOUT_MS ?? '60000', 'CMS_PRIMARY_TIMEOUT_MS', 100, 3_600_000),
    git: {
      splitIndex: env.CMS_GIT_SPLIT_INDEX === '1',
      packing: env.CMS_GIT_PACKING !== '0',
      bin: env.CMS_GIT_PATH || 'git',
      env: gitEnvironment(process.env),
      upstream,
      upstreamToken: env.CMS_GIT_UPSTREAM_TOKEN || undefined,
      branch: parseBranch(env.CMS_GIT_BRANCH || undefined),
      syncIntervalMs: parseInteger(env.CMS_GIT_SYNC_INTERVAL_MS ?? '10000', 'CMS_GIT_SYNC_INTERVAL_MS', 50, 86_400_000),
    },
    nodeOptions: env.NODE_OPTIONS ?? '',
  });
}

function parseHttpUrl(raw: string | undefined, name: string): string | undefined {
  if (raw !== undefined && !/^https?:\/\/[^/]+(\/.*)?$/.test(raw)) throw new ConfigError(`${name} must be an http(s) URL.`);
  return raw;
}

function parseRole(raw: string): NodeRole {
  if (raw !== 'primary' && raw !== 'replica') throw new ConfigError('CMS_ROLE must be primary or replica.');
  return raw;
}

// An upstream is a URL git fetches over http(s), or a repository on this machine.
function parseUpstream(raw: string | undefined, cwd: string): string | undefined {
  if (raw === undefined) return undefined;
  if (/^https?:\/\//.test(raw)) return parseHttpUrl(raw, 'CMS_GIT_UPSTREAM');
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw)) throw new ConfigError('CMS_GIT_UPSTREAM must be an http(s) URL or a local path.');
  return path.resolve(cwd, raw);
}

// git's own rules for a branch name (git check-ref-format --branch), in short.
function parseBranch(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const valid = /^[A-Za-z0-9._/-]{1,200}$/.test(raw) && !/(^[-/.]|\.\.|\/\/|\/\.|\.lock$|[/.]$)/.test(raw) && raw !== 'HEAD';
  if (!valid) throw new ConfigError('CMS_GIT_BRANCH must be a git branch name such as main.');
  return raw;
}

const GIT_REDIRECTS = new Set([
  'GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_QUARANTINE_PATH',
  'GIT_CEILING_DIRECTORIES', 'GIT_NAMESPACE', 'GIT_PROTOCOL', 'GIT_CONFIG_PARAMETERS', 'GIT_CONFIG_COUNT', 'GIT_PREFIX',
]);

// The process environment as git commands see it: the server's settings
// (CMS_*, upstream token included) stay out, and git never prompts.
function gitEnvironment(source: NodeJS.ProcessEnv): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [key, value] of Object.entries(source)) {
    if (value === undefined || key.startsWith('CMS_') || GIT_REDIRECTS.has(key) || /^GIT_CONFIG_(KEY|VALUE)_/.test(key)) continue;
    kept[key] = value;
  }
  return { ...kept, GIT_TERMINAL_PROMPT: '0' };
}

function parseLogLevel(raw: string): Config['logLevel'] {
  if (raw !== 'silent' && raw !== 'error' && raw !== 'info') throw new ConfigError('CMS_LOG_LEVEL must be silent, error or info.');
  return raw;
}

// A comma-separated list of lowercase words or MIME types; which ones are known is the domain's check.
function parseList(raw: string, name: string): string[] {
  const items = raw.split(',').map((item) => item.trim().toLowerCase()).filter((item) => item !== '');
  if (items.length === 0 || items.some((item) => !/^[a-z0-9][a-z0-9.+/-]*$/.test(item))) {
    throw new ConfigError(`${name} must be a comma-separated list of media groups or MIME types.`);
  }
  return items;
}

function parseInteger(raw: string, name: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number.`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}.`);
  return value;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
