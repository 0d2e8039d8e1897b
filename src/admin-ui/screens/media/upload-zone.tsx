// Where files are dropped or picked, and the queue of their uploads below:
// a progress bar per file, its error in words, a button to dismiss a failure.
import { useRef, useState } from 'preact/hooks';
import type { MediaItem } from '../../api/media.ts';
import { Button } from '../../ui/button.tsx';
import { useUploadQueue } from './upload-queue.ts';

export function UploadZone({ category, onUploaded }: { category?: string; onUploaded: (item: MediaItem) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [isOver, setOver] = useState(false);
  const { queue, add, dismiss } = useUploadQueue(category, onUploaded);
  return (
    <div class="upload">
      <div
        class={isOver ? 'upload__zone upload__zone--over' : 'upload__zone'}
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(event) => {
          event.preventDefault();
          setOver(false);
          void add([...(event.dataTransfer?.files ?? [])]);
        }}
      >
        <p>Drop files here{category ? ` to put them in ${category}` : ''}, or</p>
        <Button onClick={() => input.current?.click()}>Choose files</Button>
        <input
          ref={input}
          type="file"
          multiple
          class="visually-hidden"
          tabIndex={-1}
          aria-label="Files to upload"
          onChange={(event) => {
            void add([...(event.currentTarget.files ?? [])]);
            event.currentTarget.value = '';
          }}
        />
      </div>
      {queue.length > 0 && (
        <ul class="upload__queue" aria-label="Uploads">
          {queue.map((item) => (
            <li key={item.key} class={`upload__item upload__item--${item.state}`}>
              <span class="upload__name">{item.name}</span>
              {item.state === 'failed' ? (
                <>
                  <span class="upload__error" role="alert">
                    {item.error}
                  </span>
                  <Button variant="quiet" onClick={() => dismiss(item.key)} aria-label={`Dismiss ${item.name}`}>
                    ×
                  </Button>
                </>
              ) : (
                <progress max={1} value={item.progress} aria-label={`Uploading ${item.name}`}>
                  {Math.round(item.progress * 100)}%
                </progress>
              )}
              {item.state === 'done' && <span class="upload__done">Uploaded</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
