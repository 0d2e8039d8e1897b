// Multipart uploads (koa-body with formidable): each file part streams into
// a sink the caller provides (the media staging folder), so large files never
// sit in memory, and, for readers that ask (media uploads, whose records keep
// it), is hashed on the way, so nobody reads it again for its SHA-256. Limits
// are enforced while streaming; on any failure every sink opened for the
// request is discarded before the error is thrown.
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { Context } from 'koa';
import type { ExtendedFormidableOptions } from 'koa-body';
import { AppError, isAppError } from '../errors/app-error.ts';
import { once } from '../lib/once.ts';

/** Where one file part is written: an id the caller knows it by, and the stream. */
export interface UploadSink {
  id: string;
  stream: Writable;
}

/** Options of createMultipartReader(). */
export interface MultipartOptions {
  /** Field names that may carry files (e.g. `media[]`). */
  fileFields: string[];
  /** Field names that may carry text values. */
  textFields: string[];
  /** Largest single file, in bytes. */
  maxFileBytes: number;
  /** Most files in one request. */
  maxFiles: number;
  /** Opens the sink for one file part; the stream must fail once more than `maxBytes` are written. */
  openSink(maxBytes: number): UploadSink;
  /** Deletes what a sink wrote. */
  discard(id: string): Promise<void>;
  /** Hash each file as it arrives (HashedFile.sha256); off, no CPU is spent on a hash nobody reads (a backup archive). */
  hash?: boolean;
}

/** One received file. */
export interface ReceivedFile {
  field: string;
  /** The client's file name (untrusted; may be empty). */
  originalName: string;
  id: string;
}

/** A file received by a reader with `hash: true`. */
export interface HashedFile extends ReceivedFile {
  /** The SHA-256 of the bytes written to its sink, as 64 lowercase hex digits. */
  sha256: string;
}

/** A parsed multipart request: the files in order, and one value per text field. */
export interface MultipartForm<File extends ReceivedFile = ReceivedFile> {
  files: File[];
  fields: Record<string, string>;
}

const MAX_TEXT_FIELDS = 20;
const MAX_TEXT_BYTES = 64 * 1024;

/**
 * Returns a reader for multipart/form-data requests. The reader throws
 * unsupported_media_type (415) for other bodies, payload_too_large (413) over
 * a limit, validation_failed (422) for unknown or repeated fields, and
 * invalid_request (400) for a malformed body.
 */
export function createMultipartReader(options: MultipartOptions & { hash: true }): (ctx: Context) => Promise<MultipartForm<HashedFile>>;
export function createMultipartReader(options: MultipartOptions): (ctx: Context) => Promise<MultipartForm>;
export function createMultipartReader(options: MultipartOptions): (ctx: Context) => Promise<MultipartForm | MultipartForm<HashedFile>> {
  return async (ctx) => {
    if (!ctx.is('multipart/form-data')) {
      throw new AppError('unsupported_media_type', 'Send the files as multipart/form-data.');
    }
    const sinks: UploadSink[] = [];
    const fileOf = new WeakMap<object, UploadSink>();
    const tooLarge = `An upload may hold at most ${options.maxFiles} files of at most ${options.maxFileBytes} bytes each.`;
    const parse = createMultipartParser(
      {
        maxFiles: options.maxFiles,
        maxFileSize: options.maxFileBytes,
        maxTotalFileSize: options.maxFileBytes * options.maxFiles,
        allowEmptyFiles: true,
        minFileSize: 0,
        hashAlgorithm: options.hash ? 'sha256' : false,
        maxFields: MAX_TEXT_FIELDS,
        maxFieldsSize: MAX_TEXT_BYTES,
        fileWriteStreamHandler: (file) => {
          const sink = options.openSink(options.maxFileBytes);
          sinks.push(sink);
          if (file) fileOf.set(file, sink);
          return sink.stream;
        },
      },
      tooLarge,
    );
    try {
      await parse(ctx);
      return collect(ctx, options, fileOf, sinks);
    } catch (error) {
      await discardAll(sinks, options);
      throw error;
    }
  };
}

function collect(ctx: Context, options: MultipartOptions, fileOf: WeakMap<object, UploadSink>, sinks: UploadSink[]): MultipartForm {
  const problems: Record<string, string> = {};
  const files: ReceivedFile[] = [];
  for (const [field, sent] of Object.entries(ctx.request.files ?? {})) {
    if (!options.fileFields.includes(field)) problems[field] = `Unknown file field "${field}".`;
    for (const file of Array.isArray(sent) ? sent : [sent]) {
      const sink = fileOf.get(file);
      if (!sink) continue;
      const received: ReceivedFile = { field, originalName: file.originalFilename ?? '', id: sink.id };
      if (!options.hash) {
        files.push(received);
        continue;
      }
      // formidable hashes each part as it hands it to the sink and leaves the hex digest here once the part ends.
      if (typeof file.hash !== 'string') throw new Error('formidable gave no SHA-256 for an uploaded file.');
      const hashed: HashedFile = { ...received, sha256: file.hash };
      files.push(hashed);
    }
  }
  const fields: Record<string, string> = {};
  const body: unknown = ctx.request.body;
  for (const [field, value] of Object.entries(typeof body === 'object' && body !== null ? body : {})) {
    if (!options.textFields.includes(field)) problems[field] = `Unknown field "${field}".`;
    else if (typeof value !== 'string') problems[field] = `The field "${field}" may be sent only once.`;
    else fields[field] = value;
  }
  if (Object.keys(problems).length > 0) throw new AppError('validation_failed', 'The upload has unknown or repeated fields.', { fields: problems });
  // formidable lists files as they finish writing; the client's order is the order the parts began.
  const position = new Map(sinks.map((sink, index) => [sink.id, index]));
  files.sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0));
  return { files, fields };
}

// Streams still being written must finish closing before their files are deleted.
async function discardAll(sinks: UploadSink[], options: MultipartOptions): Promise<void> {
  await Promise.all(
    sinks.map(async (sink) => {
      sink.stream.destroy();
      await finished(sink.stream).catch(() => undefined);
      await options.discard(sink.id).catch(() => undefined);
    }),
  );
}

/**
 * Returns a parser of multipart bodies only (koa-body with these formidable
 * limits) that leaves files and fields on `ctx.request`. Readers with their own
 * file handling (avatars) build on it. Throws payload_too_large (413) with
 * `tooLargeMessage` over a limit and invalid_request (400) for a malformed body.
 */
export function createMultipartParser(formidable: ExtendedFormidableOptions, tooLargeMessage: string): (ctx: Context) => Promise<void> {
  // koa-body (with formidable and zod) is loaded by the first upload, not by every start (~0.15 s of CPU).
  const parser = once(async () =>
    (await import('koa-body')).koaBody({
      multipart: true,
      json: false,
      urlencoded: false,
      text: false,
      formidable,
      onError: (error) => {
        throw translate(error, tooLargeMessage);
      },
    }),
  );
  return async (ctx) => {
    await (await parser())(ctx, async () => undefined);
  };
}

// formidable reports limits with an httpCode, never a status; errors from our
// own sinks are AppErrors already.
function translate(error: Error, tooLargeMessage: string): AppError {
  if (isAppError(error)) return error;
  const httpCode = 'httpCode' in error && typeof error.httpCode === 'number' ? error.httpCode : 400;
  if (httpCode === 413) return new AppError('payload_too_large', tooLargeMessage, { cause: error });
  return new AppError('invalid_request', 'The multipart body could not be read.', { cause: error });
}
