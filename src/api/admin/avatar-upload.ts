// Reads the one image of an avatar upload (multipart field `avatar`) into
// memory: the file never touches the disk, and the size limit is enforced
// while streaming. Sniffing the type is the domain's job (profile-service.ts).
import { Writable } from 'node:stream';
import type { Context } from 'koa';
import { AppError } from '../../errors/app-error.ts';
import { createMultipartParser } from '../../http/multipart.ts';

/**
 * Returns a reader of the `avatar` file of a multipart request, limited to
 * `maxBytes`. The reader throws unsupported_media_type (415) for a non-multipart
 * body, payload_too_large (413) over the limit, validation_failed (422) without a file.
 */
export function createAvatarReader(maxBytes: number): (ctx: Context) => Promise<Uint8Array> {
  const chunksOf = new WeakMap<object, Buffer[]>();
  const parse = createMultipartParser(
    {
      maxFiles: 1,
      maxFileSize: maxBytes,
      maxTotalFileSize: maxBytes,
      maxFields: 10,
      maxFieldsSize: 10 * 1024,
      allowEmptyFiles: false,
      fileWriteStreamHandler: (file) => {
        const chunks: Buffer[] = [];
        if (file) chunksOf.set(file, chunks);
        return new Writable({
          write(chunk: Buffer, _encoding, done) {
            chunks.push(chunk);
            done();
          },
        });
      },
    },
    'An avatar may be at most 2 MB.',
  );
  return async (ctx) => {
    if (!ctx.is('multipart/form-data')) {
      throw new AppError('unsupported_media_type', 'Send the avatar as multipart/form-data with a file field "avatar".');
    }
    await parse(ctx);
    const sent = ctx.request.files?.avatar;
    const file = Array.isArray(sent) ? sent[0] : sent;
    const chunks = file ? chunksOf.get(file) : undefined;
    if (!chunks) throw new AppError('validation_failed', 'No avatar file was sent.', { fields: { avatar: 'A file is required.' } });
    return Buffer.concat(chunks);
  };
}
