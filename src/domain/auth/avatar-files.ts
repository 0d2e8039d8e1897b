// Avatar images as documents of the state folder: each one is a small JSON
// document with the bytes in base64, so avatars share the state store's
// atomic writes and stay out of the content repo.
import type { StateStore } from '../../storage/state-store.ts';
import type { AvatarFiles } from './profile-service.ts';

interface AvatarDocument {
  data?: unknown;
}

/** AvatarFiles on top of the state store (documents named `avatar-{userId}`). */
export function stateAvatarFiles(state: Pick<StateStore, 'read' | 'write' | 'remove'>): AvatarFiles {
  return {
    read: async (name) => {
      const document = await state.read<AvatarDocument | null>(name, null);
      return typeof document?.data === 'string' ? Buffer.from(document.data, 'base64') : undefined;
    },
    write: (name, bytes) => state.write(name, { data: Buffer.from(bytes).toString('base64') }),
    remove: (name) => state.remove(name),
  };
}
