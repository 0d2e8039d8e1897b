// Which languages an entry is written in: one pill per locale of the type,
// filled when saved, outlined when missing, the default one marked.
import type { ContentType } from '../api/types.ts';
import './content.css';

/** The pills for one entry; nothing for types without locales. */
export function LocalePills({ type, saved }: { type: ContentType; saved: string[] | undefined }) {
  if (type.locales.length === 0) return null;
  return (
    <ul class="locale-pills" aria-label="Languages">
      {type.locales.map((code) => {
        const isSaved = saved?.includes(code) ?? false;
        const isDefault = code === type.default_locale;
        const state = `${isSaved ? 'saved' : 'missing'}${isDefault ? ', default' : ''}`;
        return (
          <li key={code} class={`locale-pill ${isSaved ? 'locale-pill--saved' : 'locale-pill--missing'}`} title={`${code}: ${state}`}>
            {code}
            {isDefault && <span aria-hidden="true">*</span>}
            <span class="visually-hidden"> ({state})</span>
          </li>
        );
      })}
    </ul>
  );
}
