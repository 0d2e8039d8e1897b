// The rules of image transformations on media URLs (`?w=&h=&fit=&format=&q=`,
// docs/media.md "Image transformations"): which sizes, fits, formats and
// qualities exist, how a request is normalized so equal results share one
// cache file, and how large the output is. No sharp here (images.ts applies
// a transform) and no disk (storage/variant-store.ts keeps the results).

/**
 * The only widths and heights a transformation accepts. A fixed list keeps
 * the number of variants per image small and matches the widths `srcset`
 * lists are usually made of; any other value is refused, never snapped, so
 * an output is never silently larger or smaller than asked.
 */
export const IMAGE_SIZES = [
  16, 32, 48, 64, 96, 128, 160, 192, 256, 320, 384, 400, 480, 512, 576, 640, 720, 768, 800, 960, 1024, 1080, 1200, 1280, 1440,
  1536, 1600, 1920, 2048, 2560, 3200, 3840, 4096,
] as const;

/** How an image meets a box of both `w` and `h`: cut to fill it, padded to fill it, or fitted inside it. */
export const IMAGE_FITS = ['cover', 'contain', 'inside'] as const;
export type ImageFit = (typeof IMAGE_FITS)[number];

/** The formats a transformation can produce. */
export const IMAGE_FORMATS = ['webp', 'avif', 'jpeg', 'png'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** The output formats of a variant: the ones asked for, plus GIF when a GIF keeps its own format. */
export type VariantFormat = ImageFormat | 'gif';

/** Quality bounds of `q`. */
export const QUALITY_RANGE = { min: 1, max: 100 } as const;

// What sharp would pick is tuned for photos; these are the usual web defaults.
// PNG and GIF are lossless here, so `q` does not apply to them.
const DEFAULT_QUALITY: Record<VariantFormat, number | undefined> = { jpeg: 80, webp: 80, avif: 50, png: undefined, gif: undefined };

const FORMAT_MIME: Record<VariantFormat, string> = {
  webp: 'image/webp', avif: 'image/avif', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif',
};

// The source formats a transformation reads, and the format it keeps without `format`.
const SOURCE_FORMAT: Record<string, VariantFormat> = {
  'image/jpeg': 'jpeg', 'image/png': 'png', 'image/apng': 'png', 'image/gif': 'gif', 'image/webp': 'webp', 'image/avif': 'avif',
};

/** What a media URL asked for, already checked value by value (api/media/). */
export interface ImageTransformRequest {
  width?: number;
  height?: number;
  fit?: ImageFit;
  format?: ImageFormat;
  quality?: number;
}

/** A normalized transformation: every choice made, nothing that does not change the result. */
export interface ImageTransform {
  width?: number;
  height?: number;
  fit: ImageFit;
  format: VariantFormat;
  /** Undefined for the lossless formats. */
  quality?: number;
}

/** Whether a request names any transformation parameter at all (else the original is served). */
export function isTransformRequested(request: ImageTransformRequest): boolean {
  return Object.values(request).some((value) => value !== undefined);
}

/**
 * The normalized form of `request` for an image of MIME type `sourceMime`, or
 * undefined when it would give back the original (no size, same format, no
 * quality). `fit` matters only with both sizes; `q` only for lossy formats.
 * Throws nothing; undefined too for a source format it cannot write.
 */
export function normalizeTransform(request: ImageTransformRequest, sourceMime: string): ImageTransform | undefined {
  const source = SOURCE_FORMAT[sourceMime];
  if (source === undefined) return undefined;
  const format = request.format ?? source;
  const hasBox = request.width !== undefined && request.height !== undefined;
  const fit = hasBox ? (request.fit ?? 'inside') : 'inside';
  const lossy = DEFAULT_QUALITY[format] !== undefined;
  const quality = lossy ? (request.quality ?? DEFAULT_QUALITY[format]) : undefined;
  if (request.width === undefined && request.height === undefined && format === source && (request.quality === undefined || !lossy)) return undefined;
  return { ...(request.width === undefined ? {} : { width: request.width }), ...(request.height === undefined ? {} : { height: request.height }), fit, format, ...(quality === undefined ? {} : { quality }) };
}

/** The MIME type of a variant's format. */
export function mimeOfFormat(format: VariantFormat): string {
  return FORMAT_MIME[format];
}

/**
 * The cache file name of a variant: the source's content version, then every
 * normalized choice, e.g. `5f3a-18c2d1e7a40_640xauto_inside_q80.webp`. Equal
 * requests give equal names; a changed source gives new ones. `version` must
 * hold only letters, digits and `-`.
 */
export function variantName(version: string, transform: ImageTransform): string {
  const size = `${transform.width ?? 'auto'}x${transform.height ?? 'auto'}`;
  const quality = transform.quality === undefined ? 'lossless' : `q${transform.quality}`;
  return `${version}_${size}_${transform.fit}_${quality}.${transform.format}`;
}

/** A size in pixels. */
export interface PixelSize {
  width: number;
  height: number;
}

/**
 * The box to resize an image of `source` size into, so that it is never
 * enlarged: a box the image would have to grow to fill is scaled down,
 * keeping its aspect ratio (`cover` 640×640 of a 900×300 image is 300×300);
 * `inside` and a single size never exceed the image. Throws nothing.
 */
export function outputBox(source: PixelSize, transform: Pick<ImageTransform, 'width' | 'height' | 'fit'>): Partial<PixelSize> {
  const { width, height, fit } = transform;
  if (width !== undefined && height !== undefined) {
    const scaleX = width / source.width;
    const scaleY = height / source.height;
    const scale = fit === 'cover' ? Math.max(scaleX, scaleY) : Math.min(scaleX, scaleY);
    if (scale <= 1) return { width, height };
    if (fit === 'inside') return { width: source.width, height: source.height };
    return { width: Math.max(1, Math.round(width / scale)), height: Math.max(1, Math.round(height / scale)) };
  }
  if (width !== undefined) return { width: Math.min(width, source.width) };
  if (height !== undefined) return { height: Math.min(height, source.height) };
  return {};
}
