// What the OpenAPI document says about each public route (the /api/v1
// router and the media file routes) that the route
// itself cannot: a summary, the tag, the schema of a JSON body (the very
// schema object the route validates with, where the route has one) and of
// the answer. Paths, methods, path parameters and query parameters come from
// the router (openapi-document.ts); a route without an entry here fails the
// OpenAPI test, so a new route is documented or the build is red.
import { bulkVisibilitySchema, categorySchema, createCategorySchema, metaSchema, renameCategorySchema, visibilitySchema } from '../media/media.schemas.ts';
import { envelope, ref, type JsonSchema } from './schemas.ts';

/** One operation's documentation; `body` and `answer` are JSON Schemas (refs allowed). */
export interface OperationDoc {
  summary: string;
  tag: 'Health' | 'Content types' | 'Entries' | 'Changes' | 'Media' | 'Media files' | 'Problems' | 'Reference';
  /** The JSON request body; `multipart` for the upload form. */
  body?: JsonSchema | 'multipart';
  /** The success answer (200 unless `status`); undefined for a non-JSON answer. */
  answer?: JsonSchema;
  status?: number;
  /** The answer's media type when it is not JSON. */
  produces?: string;
}

const entry = ref('Entry');
const listMeta = ref('ListMeta');
const binary: JsonSchema = { type: 'string', contentMediaType: 'application/octet-stream' };
const mediaList = envelope({ type: 'array', items: ref('MediaItem') });
const categoriesMeta: JsonSchema = { type: 'object', properties: { categories: { type: 'array', items: {} } } };

/** Keyed by `METHOD /path`, path parameters as `{name}`. */
export const OPERATIONS: Record<string, OperationDoc> = {
  'GET /api/v1/health': { tag: 'Health', summary: 'Health of this node: version, git, replica lag. Needs no grant and no workspace.', answer: envelope(ref('Health')) },
  'GET /api/v1/workspaces/{ws}/health': { tag: 'Health', summary: 'The health report, under a workspace.', answer: envelope(ref('Health')) },
  'GET /api/v1/openapi.json': { tag: 'Reference', summary: 'This document.', answer: { type: 'object' } },
  'GET /api/v1/workspaces/{ws}/openapi.json': { tag: 'Reference', summary: 'This document with a typed entry schema per content type of the workspace the caller may read.', answer: { type: 'object' } },

  'GET /api/v1/workspaces/{ws}/content-types': { tag: 'Content types', summary: 'The content types the caller may read.', answer: envelope({ type: 'array', items: ref('ContentType') }) },
  'GET /api/v1/workspaces/{ws}/content-types/{type}': { tag: 'Content types', summary: 'One content type.', answer: envelope(ref('ContentType')) },
  'POST /api/v1/workspaces/{ws}/content-types': { tag: 'Content types', summary: 'Creates a content type (schema.create).', body: ref('ContentTypeInput'), answer: envelope(ref('ContentType')), status: 201 },
  'PUT /api/v1/workspaces/{ws}/content-types/{type}': { tag: 'Content types', summary: 'Replaces a content type (schema.update).', body: ref('ContentTypeInput'), answer: envelope(ref('ContentType')) },
  'DELETE /api/v1/workspaces/{ws}/content-types/{type}': { tag: 'Content types', summary: 'Deletes a content type without entries (schema.delete).', answer: ref('Ok') },

  'GET /api/v1/workspaces/{ws}/content/{type}': {
    tag: 'Entries',
    summary: 'Lists entries, with filters, sort, search, paging, include and locale (docs/query-parameters.md); a single-page type answers its entry.',
    answer: { oneOf: [envelope({ type: 'array', items: entry }, listMeta), envelope(entry)] },
  },
  'GET /api/v1/workspaces/{ws}/content/{type}/{id}': { tag: 'Entries', summary: 'One entry by id or slug.', answer: envelope(entry) },
  'POST /api/v1/workspaces/{ws}/content/{type}': { tag: 'Entries', summary: 'Creates an entry (content.create).', body: ref('EntryInput'), answer: envelope(entry), status: 201 },
  'PUT /api/v1/workspaces/{ws}/content/{type}/{id}': { tag: 'Entries', summary: 'Updates an entry; If-Match guards against lost updates (content.update).', body: ref('EntryInput'), answer: envelope(entry) },
  'PATCH /api/v1/workspaces/{ws}/content/{type}/{id}': { tag: 'Entries', summary: 'Updates the given fields of an entry (content.update).', body: ref('EntryInput'), answer: envelope(entry) },
  'DELETE /api/v1/workspaces/{ws}/content/{type}/{id}': { tag: 'Entries', summary: 'Moves an entry to the trash (content.delete).', answer: ref('Ok') },

  'GET /api/v1/workspaces/{ws}/changes': {
    tag: 'Changes',
    summary: 'What changed since a commit for this caller, with the visibility of the list routes (docs/changes-feed.md): store meta.head and ask ?since= it next time; follow meta.next_cursor.',
    answer: envelope({ type: 'array', items: ref('ChangeItem') }, ref('ChangesMeta')),
  },

  'GET /api/v1/workspaces/{ws}/media': { tag: 'Media', summary: 'Lists media files, with q, category and paging.', answer: envelope({ type: 'array', items: ref('MediaItem') }, listMeta) },
  'POST /api/v1/workspaces/{ws}/media': { tag: 'Media', summary: 'Uploads files as multipart/form-data (media[] and an optional category).', body: 'multipart', answer: envelope({ type: 'array', items: ref('MediaItem') }, categoriesMeta), status: 201 },
  'POST /api/v1/workspaces/{ws}/media/categories': { tag: 'Media', summary: 'Creates a media category.', body: createCategorySchema, answer: envelope({ type: 'object', properties: { name: { type: 'string' } } }, categoriesMeta), status: 201 },
  'PUT /api/v1/workspaces/{ws}/media/categories/{category}': { tag: 'Media', summary: 'Renames a media category.', body: renameCategorySchema, answer: envelope({ type: 'object', properties: { name: { type: 'string' } } }, categoriesMeta) },
  'PATCH /api/v1/workspaces/{ws}/media/categories/{category}': { tag: 'Media', summary: 'Renames a media category.', body: renameCategorySchema, answer: envelope({ type: 'object', properties: { name: { type: 'string' } } }, categoriesMeta) },
  'DELETE /api/v1/workspaces/{ws}/media/categories/{category}': { tag: 'Media', summary: 'Deletes a media category; its files move to its parent.', answer: ref('Ok') },
  'PUT /api/v1/workspaces/{ws}/media/bulk-visibility': { tag: 'Media', summary: 'Makes several files public or private.', body: bulkVisibilitySchema, answer: mediaList },
  'PUT /api/v1/workspaces/{ws}/media/{filename}/category': { tag: 'Media', summary: 'Moves a file to a category.', body: categorySchema, answer: envelope(ref('MediaItem'), categoriesMeta) },
  'PATCH /api/v1/workspaces/{ws}/media/{filename}/category': { tag: 'Media', summary: 'Moves a file to a category.', body: categorySchema, answer: envelope(ref('MediaItem'), categoriesMeta) },
  'PUT /api/v1/workspaces/{ws}/media/{filename}/meta': { tag: 'Media', summary: 'Sets a file\'s alt text and title.', body: metaSchema, answer: envelope(ref('MediaItem')) },
  'PATCH /api/v1/workspaces/{ws}/media/{filename}/meta': { tag: 'Media', summary: 'Sets a file\'s alt text and title.', body: metaSchema, answer: envelope(ref('MediaItem')) },
  'PUT /api/v1/workspaces/{ws}/media/{filename}/visibility': { tag: 'Media', summary: 'Makes a file public or private.', body: visibilitySchema, answer: envelope(ref('MediaItem')) },
  'PATCH /api/v1/workspaces/{ws}/media/{filename}/visibility': { tag: 'Media', summary: 'Makes a file public or private.', body: visibilitySchema, answer: envelope(ref('MediaItem')) },
  'DELETE /api/v1/workspaces/{ws}/media/{filename}': { tag: 'Media', summary: 'Deletes a media file.', answer: ref('Ok') },

  'GET /api/v1/workspaces/{ws}/problems': {
    tag: 'Problems',
    summary: 'The files of the workspace the server reads and does not use now (entry files that are no valid entry of an existing type: bad names, files without a type, parse and validation errors; type files and media metadata that do not parse or validate) and the bad settings of its workspace.yaml, one item per problem, by path: what `cms check` prints (problems.read).',
    answer: envelope({ type: 'array', items: ref('Problem') }, { type: 'object', required: ['total'], properties: { total: { type: 'integer' } } }),
  },

    'GET /media/{ws}/{filename}': {
    tag: 'Media files',
    summary: 'The file itself, with its own content type; private files need media.read. With w, h (sizes from a fixed list), fit, format or q, a raster image is served resized or converted and cached; SVG is served unchanged, other files are 400 (docs/media.md "Image transformations").',
    answer: binary,
    produces: '*/*',
  },
  'GET /media-thumbs/{ws}/{filename}': {
    tag: 'Media files',
    summary: 'A thumbnail of a raster image (at most 400 px, in the image\'s own format); the original for other files. Takes the transformation parameters of /media/{ws}/{filename}, with the same result.',
    answer: binary,
    produces: 'image/*',
  },
};
