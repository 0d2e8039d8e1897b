// The health report of SPEC "Health response": which optional capabilities load.
// The checks import the libraries lazily so that health never fails because one is missing.
import { isImageProcessingAvailable } from './media/images.ts';

/** The body of GET /health (SPEC "Health"). */
export interface Health {
  ok: boolean;
  name: string;
  version: string;
  time: string;
  extensions: { gd: boolean; zip: boolean };
}

/** The name and version the health report states. */
export interface HealthInfo {
  name: string;
  version: string;
}

/** Answers health reports; capabilities are probed once, at construction. */
export class HealthService {
  private constructor(private readonly info: HealthInfo, private readonly extensions: Health['extensions']) {}

  /** Probes the optional libraries once at start, so each health request costs nothing. */
  static async create(info: HealthInfo): Promise<HealthService> {
    // gd: thumbnails can be made (sharp loads and encodes), probed by the one owner of sharp.
    const [gd, zip] = await Promise.all([isImageProcessingAvailable(), loads(['archiver', 'yauzl'])]);
    return new HealthService(info, { gd, zip });
  }

  /** The health report at `now`; always ok while the process answers. */
  report(now: Date = new Date()): Health {
    return { ok: true, name: this.info.name, version: this.info.version, time: now.toISOString(), extensions: { ...this.extensions } };
  }
}

async function loads(modules: string[]): Promise<boolean> {
  try {
    await Promise.all(modules.map((name) => import(name)));
    return true;
  } catch {
    return false;
  }
}
