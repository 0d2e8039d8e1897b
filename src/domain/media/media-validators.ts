// The validators of a served media file (docs/media.md "Validators"): ETag and
// Last-Modified come from the file's record in the content repo (its SHA-256
// and uploaded_at), never from the node's own copy on disk, so that every
// node of a primary and its replicas, a restart, a restore and a re-copy
// agree on them and a conditional request gets the same answer anywhere.
import { IMAGE_PIPELINE_VERSION } from './images.ts';
import type { MediaRecord } from './media-record.ts';

/** What a response carries to let clients and caches revalidate it. */
export interface MediaValidators {
  /** The ETag header's value, quotes (and W/) included. */
  etag: string;
  /** Whether `etag` is weak: the bytes may differ between nodes, so it never satisfies If-Range. */
  weak: boolean;
  /** Undefined when the record holds no upload time (written by hand). */
  lastModified: Date | undefined;
}

/** The validators of an original: a strong ETag, as its bytes are the same on every node. */
export function originalValidators(record: MediaRecord, sha256: string, now: number): MediaValidators {
  return { etag: `"${sha256}"`, weak: false, lastModified: lastModifiedOf(record, now) };
}

/**
 * The validators of an image this node made from the original (a thumbnail
 * or a transformation, named by `derivedName`): weak, since two nodes — or
 * one node before and after a sharp upgrade — may encode the same image
 * into different bytes.
 */
export function derivedValidators(record: MediaRecord, derivedName: string, now: number): MediaValidators {
  return { etag: `W/"${derivedName}"`, weak: true, lastModified: lastModifiedOf(record, now) };
}

/** What a thumbnail is made from: the original's bytes and how images are made here. */
export function thumbnailName(sha256: string): string {
  return `${sha256}-thumb-v${IMAGE_PIPELINE_VERSION}`;
}

/** The source version in a variant's name (image-transforms.ts variantName): the original's bytes and how images are made here. */
export function variantSourceVersion(sha256: string): string {
  return `${sha256}-v${IMAGE_PIPELINE_VERSION}`;
}

// Never later than now (RFC 9110 8.8.2.1): a node whose clock is behind the
// primary's, or a date written by hand, would otherwise announce the future.
function lastModifiedOf(record: MediaRecord, now: number): Date | undefined {
  if (record.uploaded_at === null) return undefined;
  return new Date(Math.min(Date.parse(record.uploaded_at), now));
}
