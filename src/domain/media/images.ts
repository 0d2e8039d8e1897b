// Image facts, thumbnails and transformed variants, the one place that uses sharp. sharp is loaded
// lazily: when its native part is missing the server still runs, images get
// null dimensions and no thumbnail, and health reports `extensions.gd: false`.
import type sharpModule from 'sharp';
import type { Sharp } from 'sharp';
import { succeedsInChild } from '../../lib/child-probe.ts';
import { mimeOfFormat, outputBox, type ImageTransform, type VariantFormat } from './image-transforms.ts';
import { isRasterImage } from './media-types.ts';

/**
 * How thumbnails and variants are made here, in their validators and cache
 * names: bump it when a change to this file changes what an output looks
 * like for the same parameters (an encoder option, the padding), so caches
 * fetch the new image. A sharp upgrade alone does not: its output looks the
 * same, which is what the weak ETags of these images promise.
 */
export const IMAGE_PIPELINE_VERSION = 1;

/** The longest side of a thumbnail, in pixels. */
export const THUMBNAIL_SIZE = 400;

/** What an uploaded image yields: its pixel size and a thumbnail, or nulls and none for anything unreadable. */
export interface ImageFacts {
  width: number | null;
  height: number | null;
  thumbnail: Uint8Array | undefined;
}

type SharpFactory = typeof sharpModule;

const NO_FACTS: ImageFacts = { width: null, height: null, thumbnail: undefined };

// Thumbnails keep the original's format: every one of these is shown by browsers.
const ENCODERS: Record<string, (image: Sharp) => Sharp> = {
  'image/jpeg': (image) => image.jpeg({ quality: 80 }),
  'image/png': (image) => image.png(),
  'image/apng': (image) => image.png(),
  'image/gif': (image) => image.gif(),
  'image/webp': (image) => image.webp({ quality: 80 }),
  'image/avif': (image) => image.avif({ effort: 2 }),
};

// Variants: quality only for the lossy formats; AVIF at a low effort, as
// its default effort costs seconds per image on a small machine.
const VARIANT_ENCODERS: Record<VariantFormat, (image: Sharp, quality: number | undefined) => Sharp> = {
  jpeg: (image, quality) => image.jpeg({ quality }),
  webp: (image, quality) => image.webp({ quality }),
  avif: (image, quality) => image.avif({ quality, effort: 2 }),
  png: (image) => image.png(),
  gif: (image) => image.gif(),
};

// Only these keep every frame of an animated source; the others get its first frame.
const ANIMATED_FORMATS: ReadonlySet<VariantFormat> = new Set(['gif', 'webp']);

/** A transformed image: its bytes and MIME type. */
export interface ImageVariant {
  bytes: Uint8Array;
  mime: string;
}

let loading: Promise<SharpFactory | undefined> | undefined;
let probing: Promise<boolean> | undefined;

// What the health probe runs in a child process: sharp loads and encodes an image.
const SHARP_PROBE = "const { default: sharp } = await import('sharp'); await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000000' } }).png().toBuffer();";

/**
 * Whether sharp loads and can encode an image; probed once, in a child
 * process (lib/child-probe.ts), so that sharp loads into the server only
 * with the first image. Health reports it as `extensions.gd`. Throws nothing.
 */
export function isImageProcessingAvailable(): Promise<boolean> {
  probing ??= succeedsInChild(SHARP_PROBE);
  return probing;
}

/**
 * Reads an image's width and height (after EXIF orientation) and makes its
 * thumbnail (raster images only; SVG gets dimensions but no thumbnail). A
 * truncated or corrupt image, or one sharp cannot read, gives null
 * dimensions and no thumbnail. Throws nothing.
 */
export async function inspectImage(bytes: Uint8Array, mime: string): Promise<ImageFacts> {
  const sharp = await loadSharp();
  if (!sharp) return NO_FACTS;
  try {
    const metadata = await sharp(bytes).metadata();
    const width = metadata.autoOrient?.width ?? metadata.width;
    const height = metadata.autoOrient?.height ?? metadata.height;
    if (!isPositive(width) || !isPositive(height)) return NO_FACTS;
    if (!isRasterImage(mime)) return { width, height, thumbnail: undefined };
    // Decoding the whole image for the thumbnail is also what finds truncated files.
    const thumbnail = await resize(sharp, bytes, mime);
    return thumbnail ? { width, height, thumbnail } : NO_FACTS;
  } catch {
    return NO_FACTS;
  }
}

/**
 * A thumbnail of a raster image: at most 400 px on the long side, never
 * enlarged, EXIF orientation applied, metadata stripped, in the original's
 * format. Undefined when the image cannot be read or is not a raster image. Throws nothing.
 */
export async function makeThumbnail(bytes: Uint8Array, mime: string): Promise<Uint8Array | undefined> {
  const sharp = await loadSharp();
  if (!sharp || !isRasterImage(mime)) return undefined;
  try {
    return await resize(sharp, bytes, mime);
  } catch {
    return undefined;
  }
}

/**
 * Applies a normalized transformation to a raster image: resized into the
 * box of outputBox() (never enlarged), EXIF orientation applied, metadata
 * stripped, encoded in `transform.format`. An animated GIF or WebP stays
 * animated when the output is GIF or WebP. Padding (`contain`) is
 * transparent, or white in JPEG, which has no transparency. Undefined when
 * sharp is missing or cannot read the image. Throws nothing.
 */
export async function transformImage(bytes: Uint8Array, transform: ImageTransform): Promise<ImageVariant | undefined> {
  const sharp = await loadSharp();
  if (!sharp) return undefined;
  try {
    const metadata = await sharp(bytes).metadata();
    const animated = (metadata.pages ?? 1) > 1 && ANIMATED_FORMATS.has(transform.format);
    const width = metadata.autoOrient?.width ?? metadata.width;
    const height = animated ? (metadata.pageHeight ?? metadata.height) : (metadata.autoOrient?.height ?? metadata.height);
    if (!isPositive(width) || !isPositive(height)) return undefined;
    const box = outputBox({ width, height }, transform);
    const opaque = transform.format === 'jpeg';
    const background = opaque ? { r: 255, g: 255, b: 255, alpha: 1 } : { r: 0, g: 0, b: 0, alpha: 0 };
    let image = sharp(bytes, { animated }).autoOrient();
    if (box.width !== undefined || box.height !== undefined) image = image.resize(box.width, box.height, { fit: transform.fit, background });
    if (opaque) image = image.flatten({ background: '#ffffff' });
    const output = await VARIANT_ENCODERS[transform.format](image, transform.quality).toBuffer();
    return { bytes: output, mime: mimeOfFormat(transform.format) };
  } catch {
    return undefined;
  }
}

async function resize(sharp: SharpFactory, bytes: Uint8Array, mime: string): Promise<Uint8Array | undefined> {
  const encode = ENCODERS[mime];
  if (!encode) return undefined;
  const resized = sharp(bytes).autoOrient().resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true });
  return encode(resized).toBuffer();
}

function loadSharp(): Promise<SharpFactory | undefined> {
  loading ??= import('sharp').then(
    (module) => module.default,
    () => undefined,
  );
  return loading;
}

function isPositive(value: number | undefined): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
}
