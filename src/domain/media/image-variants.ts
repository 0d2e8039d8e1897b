// The cache of transformed images (docs/media.md "Image transformations"):
// a variant is made once per source version and normalized transformation,
// kept in cache/variants/ and served from there; the cache is bounded by a
// total size (CMS_MEDIA_CACHE_BYTES), least recently used variants going
// first. Not here: who may see a file (media-service.ts), the rules of a
// transformation (image-transforms.ts), sharp (images.ts), disk (storage/).
import { createLimiter, type Limiter } from '../../lib/limiter.ts';
import type { Logger } from '../../lib/logger.ts';
import { LruCache } from '../../lib/lru-cache.ts';
import { bufferedFile, type OpenedMediaFile } from '../../storage/media-store.ts';
import type { VariantAddress, VariantStore } from '../../storage/variant-store.ts';
import { mimeOfFormat, variantName, type ImageTransform } from './image-transforms.ts';
import { transformImage } from './images.ts';

/** The source a variant is made from: its content version and a way to read its bytes when the variant must be made. */
export interface VariantSource {
  workspace: string;
  filename: string;
  /** Changes whenever the bytes do, the same on every node (media-validators.ts variantSourceVersion). */
  version: string;
  read(): Promise<Uint8Array | undefined>;
}

/** A variant ready to serve: its bytes, MIME type and a validator that names the source version and the transformation. */
export interface ServedVariant {
  file: OpenedMediaFile;
  mime: string;
  /** The variant's cache name, unique per source version and transformation (its weak ETag). */
  name: string;
}

/** Counters of the cache since start, and what it holds now. */
export interface VariantStats {
  hits: number;
  made: number;
  evicted: number;
  files: number;
  bytes: number;
}

/** What ImageVariants is built from (services.ts). */
export interface ImageVariantsDeps {
  store: VariantStore;
  /** The most bytes all variants may take together. */
  maxBytes: number;
  logger: Logger;
}

interface CachedVariant {
  address: VariantAddress;
  size: number;
}

// sharp runs on libuv's thread pool, which file reads share: two transformations
// at a time keep a burst of new variants from stalling every other request.
const TRANSFORM_CONCURRENCY = 2;

/** Transformed images of every workspace, made on demand and cached on disk. */
export class ImageVariants {
  private readonly index: LruCache<string, CachedVariant>;
  private readonly making = new Map<string, Promise<Uint8Array | undefined>>();
  private readonly limit: Limiter = createLimiter(TRANSFORM_CONCURRENCY);
  private readonly counts = { hits: 0, made: 0, evicted: 0 };
  // Evicted by the index and not yet deleted; deleted before the request that evicted them answers.
  private evicted: VariantAddress[] = [];
  private loading: Promise<void> | undefined;

  constructor(private readonly deps: ImageVariantsDeps) {
    this.index = new LruCache(deps.maxBytes, (variant) => variant.size, (_key, variant) => this.evicted.push(variant.address));
  }

  /**
   * The variant of `source` for `transform`: from the cache when it is
   * there, else made (once, however many requests ask at the same time),
   * stored and counted against the cache size. Undefined when the source
   * cannot be read or transformed. Throws what reading the cache folder throws.
   */
  async open(source: VariantSource, transform: ImageTransform): Promise<ServedVariant | undefined> {
    await this.load();
    const name = variantName(source.version, transform);
    const address = { workspace: source.workspace, filename: source.filename, name };
    const key = keyOf(address);
    const cached = await this.deps.store.open(address);
    if (cached) {
      this.counts.hits += 1;
      if (this.index.get(key) === undefined) this.index.set(key, { address, size: cached.size });
      await this.deleteEvicted();
      return { file: cached, mime: mimeOfFormat(transform.format), name };
    }
    const running = this.making.get(key) ?? this.make(source, transform, address).finally(() => this.making.delete(key));
    this.making.set(key, running);
    const bytes = await running;
    return bytes && { file: bufferedFile(bytes), mime: mimeOfFormat(transform.format), name };
  }

  /** Forgets and deletes every variant of a media file (it was deleted or renamed). */
  async dropFile(workspace: string, filename: string): Promise<void> {
    const prefix = `${workspace}/${filename}/`;
    for (const key of this.index.keys()) if (key.startsWith(prefix)) this.index.delete(key);
    await this.deps.store.removeAll(workspace, filename);
  }

  /** Removes a workspace's folder of variants once it holds none (its media went away with the workspace). */
  async removeEmptyFolder(workspace: string): Promise<void> {
    await this.deps.store.removeEmptyFolder(workspace);
  }

  /** Hits, variants made and evicted since start; files and bytes held now. */
  stats(): VariantStats {
    return { ...this.counts, files: this.index.size, bytes: this.index.weight };
  }

  private async make(source: VariantSource, transform: ImageTransform, address: VariantAddress): Promise<Uint8Array | undefined> {
    const variant = await this.limit(async () => {
      const original = await source.read();
      return original && transformImage(original, transform);
    });
    if (!variant) return undefined;
    this.counts.made += 1;
    try {
      await this.deps.store.write(address, variant.bytes);
    } catch (error) {
      // A full or read-only cache costs speed, not the image: it is served from memory and made again next time.
      this.deps.logger.error('could not store an image variant', { name: address.name, error });
      return variant.bytes;
    }
    // Set after the write, so eviction never deletes a file before it exists.
    this.index.set(keyOf(address), { address, size: variant.bytes.length });
    await this.deleteEvicted();
    return variant.bytes;
  }

  // Variants already on disk (from earlier runs) enter the order oldest first;
  // a lowered limit trims them here. Runs once, on the first request, so start-up does not wait for it.
  private load(): Promise<void> {
    this.loading ??= this.deps.store.list().then(
      async (found) => {
        found.sort((a, b) => a.modifiedAt.getTime() - b.modifiedAt.getTime());
        for (const { workspace, filename, name, size } of found) this.index.set(keyOf({ workspace, filename, name }), { address: { workspace, filename, name }, size });
        await this.deleteEvicted();
      },
      (error: unknown) => this.deps.logger.error('could not list the image variants on disk; they are not counted until made again', { error }),
    );
    return this.loading;
  }

  private async deleteEvicted(): Promise<void> {
    const evicted = this.evicted;
    this.evicted = [];
    for (const address of evicted) {
      this.counts.evicted += 1;
      await this.deps.store.remove(address).catch((error: unknown) => this.deps.logger.error('could not delete an evicted image variant', { name: address.name, error }));
    }
  }
}

// Workspace, media file and variant names are single safe segments, so "/" joins them unambiguously.
function keyOf(address: VariantAddress): string {
  return `${address.workspace}/${address.filename}/${address.name}`;
}
