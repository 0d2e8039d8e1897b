// The one way the app talks to the server: JSON over /admin/api with the
// session cookie, the CSRF token on writes, the selected workspace in
// X-Service-Workspace, and every error envelope turned into an ApiError.
// Screens never call fetch() themselves; they call the functions of api/*.ts.

/** The admin API root. */
export const API_ROOT = '/admin/api';

/** An answer of the API with an error envelope (or no answer at all: status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** The API's error code (API.md), e.g. `validation_failed`; `network_error` when the server could not be reached. */
    readonly code: string,
    message: string,
    /** For 422: field name → message, to show next to each field. */
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** A successful answer: `data`, `meta` (empty object when absent) and the ETag, if sent. */
export interface ApiResult<T, M = Record<string, unknown>> {
  data: T;
  meta: M;
  etag: string | undefined;
}

/** Options of one request. */
export interface RequestOptions {
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  /** A JSON body, or FormData for uploads. */
  body?: unknown;
  /** Extra headers, e.g. If-Match. */
  headers?: Record<string, string>;
  /** Another workspace than the selected one, for this request only (the workspaces screen reads archived ones' dashboards). */
  workspace?: string;
  signal?: AbortSignal;
}

interface ClientState {
  csrfToken: string | undefined;
  workspace: string | undefined;
  onSignedOut: () => void;
}

const state: ClientState = { csrfToken: undefined, workspace: undefined, onSignedOut: () => undefined };

/** Remembers the session's CSRF token (from `meta.csrf_token` of setup, login and /me). */
export function setCsrfToken(token: string | undefined): void {
  state.csrfToken = token;
}

/** Selects the workspace every later request is sent for. */
export function setWorkspace(workspace: string | undefined): void {
  state.workspace = workspace;
}

/** Registers what to do when a request finds the session gone (401 unauthenticated); the session module uses it. */
export function onSignedOut(handler: () => void): void {
  state.onSignedOut = handler;
}

/** GET `path` (relative to /admin/api). Throws ApiError. */
export function get<T, M = Record<string, unknown>>(path: string, options?: RequestOptions): Promise<ApiResult<T, M>> {
  return request<T, M>('GET', path, options);
}

/** POST `path`. Throws ApiError. */
export function post<T, M = Record<string, unknown>>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResult<T, M>> {
  return request<T, M>('POST', path, { ...options, body });
}

/** PUT `path`. Throws ApiError. */
export function put<T, M = Record<string, unknown>>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResult<T, M>> {
  return request<T, M>('PUT', path, { ...options, body });
}

/** PATCH `path`. Throws ApiError. */
export function patch<T, M = Record<string, unknown>>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResult<T, M>> {
  return request<T, M>('PATCH', path, { ...options, body });
}

/** DELETE `path`. Throws ApiError. */
export function del<T, M = Record<string, unknown>>(path: string, options?: RequestOptions): Promise<ApiResult<T, M>> {
  return request<T, M>('DELETE', path, options);
}

/**
 * Sends one request. A 403 csrf_failed (the token changed, e.g. after a sign-in
 * in another tab) is retried once with the token /me hands out now.
 */
export async function request<T, M>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResult<T, M>> {
  try {
    return await send<T, M>(method, path, options);
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'csrf_failed')) throw error;
    const me = await send<unknown, { csrf_token?: string }>('GET', '/me', {});
    setCsrfToken(me.meta.csrf_token);
    return send<T, M>(method, path, options);
  }
}

async function send<T, M>(method: string, path: string, options: RequestOptions): Promise<ApiResult<T, M>> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  const workspace = options.workspace ?? state.workspace;
  if (workspace) headers['x-service-workspace'] = workspace;
  if (method !== 'GET' && method !== 'HEAD' && state.csrfToken) headers['x-csrf-token'] = state.csrfToken;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(API_ROOT + path + queryString(options.query), { method, headers, body, signal: options.signal, credentials: 'same-origin' });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network_error', 'The server could not be reached. Check your connection and try again.');
  }
  const json = (await response.json().catch((error: unknown) => {
    // A request cancelled while its body arrives is cancelled, not an empty answer.
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    return undefined;
  })) as Json<T, M> | undefined;
  if (!response.ok) throw failureOf(response.status, json);
  return { data: json?.data as T, meta: (json?.meta ?? {}) as M, etag: response.headers.get('etag') ?? undefined };
}

/**
 * POSTs a form with files, reporting the share sent so far (0 to 1) as it
 * goes: fetch() cannot tell upload progress, XMLHttpRequest can. Throws
 * ApiError (413 payload_too_large, 422 for a type not allowed, …).
 */
export function upload<T, M = Record<string, unknown>>(path: string, form: FormData, onProgress: (share: number) => void): Promise<ApiResult<T, M>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', API_ROOT + path);
    xhr.setRequestHeader('accept', 'application/json');
    if (state.workspace) xhr.setRequestHeader('x-service-workspace', state.workspace);
    if (state.csrfToken) xhr.setRequestHeader('x-csrf-token', state.csrfToken);
    xhr.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    xhr.onerror = () => reject(new ApiError(0, 'network_error', 'The upload was cut off. Check your connection and try again.'));
    xhr.onload = () => {
      let json: Json<T, M> | undefined;
      try {
        json = JSON.parse(xhr.responseText) as Json<T, M>;
      } catch {
        json = undefined;
      }
      if (xhr.status < 200 || xhr.status >= 300) return reject(failureOf(xhr.status, json));
      resolve({ data: json?.data as T, meta: (json?.meta ?? {}) as M, etag: xhr.getResponseHeader('etag') ?? undefined });
    };
    xhr.send(form);
  });
}

type Json<T, M> = { data?: T; meta?: M; error?: { code: string; message: string; fields?: Record<string, string> } };

// The error envelope as an ApiError; a session that is gone signs the app out.
function failureOf(status: number, json: Json<unknown, unknown> | undefined): ApiError {
  const error = json?.error;
  if (error?.code === 'unauthenticated') state.onSignedOut();
  return new ApiError(status, error?.code ?? 'internal_error', error?.message ?? `The server answered ${status}.`, error?.fields);
}

function queryString(query: RequestOptions['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}
