// Request bodies and the query parameters of the media routes (SPEC "Media"):
// the list query, and the transformation parameters of file URLs.
// Names and values in bodies are checked further by the domain (file names, category paths).
import type { JSONSchemaType } from 'ajv';
import { parseCategory } from '../../domain/media/categories.ts';
import { IMAGE_FITS, IMAGE_FORMATS, IMAGE_SIZES, QUALITY_RANGE, type ImageTransformRequest } from '../../domain/media/image-transforms.ts';
import type { MediaQuery } from '../../domain/media/media-query.ts';
import { MEDIA_VISIBILITIES } from '../../domain/media/media-record.ts';
import { MEDIA_GROUPS } from '../../domain/media/media-types.ts';
import { choiceParam, integerChoiceParam, integerParam, pagingParams, searchParam, textParam, type QueryValues } from '../../http/query-params.ts';

const filename = { type: 'string', maxLength: 255 } as const;
const files = { type: 'array', items: filename, minItems: 1, maxItems: 1000 } as const;
const category = { type: 'string', maxLength: 1200 } as const;
const visibility = { type: 'string', enum: MEDIA_VISIBILITIES } as const;

/** PUT/PATCH /media/{filename}/meta: an empty string or null clears a value. */
export interface MetaBody {
  alt?: string | null;
  title?: string | null;
}

/** Shape of a media item's alt text and title update. */
export const metaSchema: JSONSchemaType<MetaBody> = {
  type: 'object',
  properties: {
    alt: { type: 'string', nullable: true, maxLength: 1000 },
    title: { type: 'string', nullable: true, maxLength: 500 },
  },
  additionalProperties: false,
};

/** PUT/PATCH /media/{filename}/visibility. */
export interface VisibilityBody {
  visibility: 'public' | 'private';
}

/** Shape of a visibility change of one media item. */
export const visibilitySchema: JSONSchemaType<VisibilityBody> = {
  type: 'object',
  properties: { visibility },
  required: ['visibility'],
  additionalProperties: false,
};

/** PUT /media/bulk-visibility. */
export interface BulkVisibilityBody {
  files: string[];
  visibility: 'public' | 'private';
}

/** Shape of a visibility change of several media items. */
export const bulkVisibilitySchema: JSONSchemaType<BulkVisibilityBody> = {
  type: 'object',
  properties: { files, visibility },
  required: ['files', 'visibility'],
  additionalProperties: false,
};

/** PUT/PATCH /media/{filename}/category: an empty string clears it. */
export interface CategoryBody {
  category: string;
}

/** Shape of moving one media item to a category. */
export const categorySchema: JSONSchemaType<CategoryBody> = {
  type: 'object',
  properties: { category },
  required: ['category'],
  additionalProperties: false,
};

/** PUT /admin/api/media/bulk-category. */
export interface BulkCategoryBody {
  files: string[];
  category: string;
}

/** Shape of moving several media items to a category. */
export const bulkCategorySchema: JSONSchemaType<BulkCategoryBody> = {
  type: 'object',
  properties: { files, category },
  required: ['files', 'category'],
  additionalProperties: false,
};

/** POST /admin/api/media/bulk-delete. */
export interface BulkDeleteBody {
  files: string[];
}

/** Shape of deleting several media items. */
export const bulkDeleteSchema: JSONSchemaType<BulkDeleteBody> = {
  type: 'object',
  properties: { files },
  required: ['files'],
  additionalProperties: false,
};

/** POST /media/categories: `name` may be a path; `parent` must exist. */
export interface CreateCategoryBody {
  name: string;
  parent?: string | null;
}

/** Shape of a new category, optionally under a parent; name rules are checked by the domain. */
export const createCategorySchema: JSONSchemaType<CreateCategoryBody> = {
  type: 'object',
  properties: { name: category, parent: { ...category, nullable: true } },
  required: ['name'],
  additionalProperties: false,
};

/** PUT/PATCH /media/categories/{category}. */
export interface RenameCategoryBody {
  name: string;
}

/** Shape of a category rename. */
export const renameCategorySchema: JSONSchemaType<RenameCategoryBody> = {
  type: 'object',
  properties: { name: category },
  required: ['name'],
  additionalProperties: false,
};

/** PUT /admin/api/media/{filename}/rename: the new name as `filename` (or `name`). */
export interface RenameBody {
  filename?: string | null;
  name?: string | null;
}

/** Shape of a media file rename (`filename`, or `name` as its alias). */
export const renameSchema: JSONSchemaType<RenameBody> = {
  type: 'object',
  properties: { filename: { ...filename, nullable: true }, name: { ...filename, nullable: true } },
  additionalProperties: false,
};

/**
 * GET /media: `q`, `category` (a category path, written as in bodies), `limit`
 * and `offset`; unknown keys are ignored, as on content lists. Throws
 * invalid_request naming the parameter.
 */
export function parseMediaListQuery(query: QueryValues): MediaQuery {
  const q = searchParam(query);
  const category = parseCategory(textParam(query, 'category') ?? '', 'category', 'invalid_request');
  const kind = choiceParam(query, 'kind', MEDIA_GROUPS);
  const visibility = choiceParam(query, 'visibility', MEDIA_VISIBILITIES);
  return {
    ...pagingParams(query),
    ...(q === undefined ? {} : { q }),
    ...(category === '' ? {} : { category }),
    ...(kind === undefined ? {} : { kind }),
    ...(visibility === undefined ? {} : { visibility }),
  };
}

/**
 * The transformation parameters of a media file URL: `w` and `h` (one of
 * IMAGE_SIZES), `fit`, `format` and `q` (1–100); other keys are ignored.
 * Throws invalid_request naming the parameter.
 */
export function parseImageTransformQuery(query: QueryValues): ImageTransformRequest {
  return {
    width: integerChoiceParam(query, 'w', IMAGE_SIZES),
    height: integerChoiceParam(query, 'h', IMAGE_SIZES),
    fit: choiceParam(query, 'fit', IMAGE_FITS),
    format: choiceParam(query, 'format', IMAGE_FORMATS),
    quality: integerParam(query, 'q', QUALITY_RANGE),
  };
}
