// Whether this node can write and read ZIP archives (the health report's
// `zip`), asked of the folder that owns archiver and yauzl. The libraries
// load only when asked, not with the start (~0.15 s of CPU for archiver).

/** Whether archiver (writing) and yauzl (reading) both load; false when either is missing or fails to load. */
export async function canZip(): Promise<boolean> {
  try {
    await Promise.all([import('archiver'), import('yauzl')]);
    return true;
  } catch {
    return false;
  }
}
