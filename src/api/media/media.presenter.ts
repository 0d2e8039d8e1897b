// The media item of SPEC "Media item": the stored record plus absolute URLs
// of the file and its thumbnail (the file's own URL when it has none).
import { hasThumbnail, type MediaRecord } from '../../domain/media/media-record.ts';

/** The fourteen fields of a media item, in SPEC order. */
export interface MediaItem {
  filename: string;
  name: string;
  url: string;
  thumb_url: string;
  size: number;
  mime: string;
  category: string;
  alt: string;
  title: string;
  visibility: 'public' | 'private';
  width: number | null;
  height: number | null;
  uploaded_by: string | null;
  uploaded_at: string | null;
}

/** The absolute URL of a media file: `{base}/media/{ws}/{filename}`. */
export function mediaFileUrl(baseUrl: string, workspace: string, filename: string): string {
  return `${baseUrl}/media/${workspace}/${encodeURIComponent(filename)}`;
}

/** Shapes a record for responses; thumbnails exist for raster images whose size could be read. */
export function presentMediaItem(record: MediaRecord, baseUrl: string, workspace: string): MediaItem {
  const url = mediaFileUrl(baseUrl, workspace, record.filename);
  return {
    filename: record.filename,
    name: record.name,
    url,
    thumb_url: hasThumbnail(record) ? `${baseUrl}/media-thumbs/${workspace}/${encodeURIComponent(record.filename)}` : url,
    size: record.size,
    mime: record.mime,
    category: record.category,
    alt: record.alt,
    title: record.title,
    visibility: record.visibility,
    width: record.width,
    height: record.height,
    uploaded_by: record.uploaded_by,
    uploaded_at: record.uploaded_at,
  };
}
