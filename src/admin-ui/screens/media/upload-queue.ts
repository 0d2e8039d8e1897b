// Uploads several files at once, each its own request, so each has its own
// progress bar and its own error (too large, type not allowed) and one
// failure never stops the others. Files over the server's size limit are
// refused here, before a byte is sent.
import { useState } from 'preact/hooks';
import { getAppInfo } from '../../api/app-info.ts';
import { ApiError } from '../../api/client.ts';
import { uploadFile, type MediaItem } from '../../api/media.ts';

/** One file of the queue. */
export interface QueuedUpload {
  key: number;
  name: string;
  /** 0 to 1 while sending. */
  progress: number;
  state: 'sending' | 'done' | 'failed';
  error?: string;
}

let nextKey = 0;

/** The queue and `add(files)`, which uploads them and calls `onUploaded` for each file that arrived. */
export function useUploadQueue(category: string | undefined, onUploaded: (item: MediaItem) => void) {
  const [queue, setQueue] = useState<QueuedUpload[]>([]);
  const update = (key: number, change: Partial<QueuedUpload>) => setQueue((current) => current.map((item) => (item.key === key ? { ...item, ...change } : item)));
  const sendOne = async (file: File, key: number, maxBytes: number | undefined) => {
    if (maxBytes !== undefined && file.size > maxBytes) {
      update(key, { state: 'failed', error: `Too large: files may be up to ${formatBytes(maxBytes)}.` });
      return;
    }
    try {
      const item = await uploadFile(file, category, (progress) => update(key, { progress }));
      update(key, { state: 'done', progress: 1 });
      onUploaded(item);
    } catch (error) {
      update(key, { state: 'failed', error: error instanceof ApiError ? error.message : 'The upload failed.' });
    }
  };
  const add = async (files: File[]) => {
    const entries = files.map((file) => ({ file, key: (nextKey += 1) }));
    setQueue((current) => [...current.filter((item) => item.state !== 'done'), ...entries.map(({ file, key }) => ({ key, name: file.name, progress: 0, state: 'sending' as const }))]);
    const maxBytes = await getAppInfo().then((info) => info.limits.upload_file_bytes, () => undefined);
    await Promise.all(entries.map(({ file, key }) => sendOne(file, key, maxBytes)));
  };
  const dismiss = (key: number) => setQueue((current) => current.filter((item) => item.key !== key));
  return { queue, add, dismiss };
}

/** 1536 → "1.5 KB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
