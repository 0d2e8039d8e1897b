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

/** How the server keeps the content repository's git files. */
export interface GitSettings {
  /** Write `.git/index` as git's split index (smaller writes; libgit2, JGit and isomorphic-git cannot read it). */
  splitIndex: boolean;
  /** Pack objects in the background with the git CLI. */
  packing: boolean;
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
  git: GitSettings;
  /** URL of the update feed (`{ version, url, sha256, notes }`), or undefined when updates are not configured. */
  updateFeed: string | undefined;
  /** Folder that installed releases are unpacked into, each in `{version}/`. */
  releasesDir: string;
  /** The built admin web app (index.html and assets/), served at /admin. */
  adminAppDir: string;
  /** Milliseconds between heartbeats on the admin live-event stream. */
  eventsHeartbeatMs: number;
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
 * Builds the Config from flags (first), then env, then defaults.
 * Throws ConfigError naming the setting when a value is malformed.
 */
export function loadConfig(sources: ConfigSources = {}): Config {
  const env = sources.env ?? process.env;
  const flags = sources.flags ?? {};
  const pick = (flag: string, name: string): string | undefined => flags[flag] ?? env[name] ?? undefined;
  const cwd = sources.cwd ?? process.cwd();

  const dataDir = path.resolve(cwd, pick('data', 'CMS_DATA_DIR') ?? '.');
  const port = parseInteger(pick('port', 'PORT') ?? '3000', 'PORT', 0, 65535);
  const defaultWorkspace = env.CMS_DEFAULT_WORKSPACE ?? 'default';
  if (!WORKSPACE_NAME.test(defaultWorkspace)) {
    throw new ConfigError('CMS_DEFAULT_WORKSPACE must be lowercase letters, digits and hyphens.');
  }
  const baseUrl = parseHttpUrl(pick('base-url', 'CMS_BASE_URL'), 'CMS_BASE_URL');
  // An empty CMS_UPDATE_FEED switches updates off, like leaving it unset.
  const updateFeed = parseHttpUrl(env.CMS_UPDATE_FEED || undefined, 'CMS_UPDATE_FEED');
  const logLevel = parseLogLevel(env.CMS_LOG_LEVEL ?? 'info');

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
    media: { allowedTypes: parseList(env.CMS_MEDIA_TYPES ?? 'image,video,audio,pdf,office,archive,text', 'CMS_MEDIA_TYPES') },
    webhooks: {
      timeoutMs: parseInteger(env.CMS_WEBHOOK_TIMEOUT_MS ?? '10000', 'CMS_WEBHOOK_TIMEOUT_MS', 100, 120_000),
      retryBaseMs: parseInteger(env.CMS_WEBHOOK_RETRY_BASE_MS ?? '30000', 'CMS_WEBHOOK_RETRY_BASE_MS', 1, 3_600_000),
      maxAttempts: parseInteger(env.CMS_WEBHOOK_MAX_ATTEMPTS ?? '5', 'CMS_WEBHOOK_MAX_ATTEMPTS', 3, 20),
    },
    backups: {
      maxFiles: parseInteger(env.CMS_BACKUP_MAX_FILES ?? '10000', 'CMS_BACKUP_MAX_FILES', 10, 10_000_000),
      maxBytes: parseInteger(env.CMS_BACKUP_MAX_BYTES ?? String(4 * 1024 ** 3), 'CMS_BACKUP_MAX_BYTES', 1024, 1024 ** 5),
    },
    git: {
      splitIndex: env.CMS_GIT_SPLIT_INDEX === '1',
      packing: env.CMS_GIT_PACKING !== '0',
    },
    updateFeed,
    releasesDir: path.resolve(cwd, env.CMS_RELEASES_DIR ?? path.join(dataDir, 'releases')),
    eventsHeartbeatMs: parseInteger(env.CMS_EVENTS_HEARTBEAT_MS ?? '15000', 'CMS_EVENTS_HEARTBEAT_MS', 100, 300_000),
    adminAppDir: path.resolve(cwd, env.CMS_ADMIN_APP_DIR ?? path.join(findPackageRoot(import.meta.url), 'dist', 'admin')),
  });
}

function parseHttpUrl(raw: string | undefined, name: string): string | undefined {
  if (raw !== undefined && !/^https?:\/\/[^/]+(\/.*)?$/.test(raw)) throw new ConfigError(`${name} must be an http(s) URL.`);
  return raw;
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
