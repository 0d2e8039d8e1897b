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

/** Where this node stands as a git peer (docs/deployment.md): for load balancers and monitoring. */
export interface NodeHealth {
  role: 'primary' | 'replica';
  /** Whether the git CLI is installed (git over HTTP, upstream sync, replicas). */
  git_available: boolean;
  branch: string | null;
  head: string;
  /** How long a replica has known it is behind its primary's head; 0 on a primary and on a replica that holds it. */
  lag_ms: number;
  /** On a replica: its primary and whether it answers. */
  primary?: { url: string; reachable: boolean; last_contact_at: string | null; head: string | null };
}

/** The name and version the health report states. */
export interface HealthInfo {
  name: string;
  version: string;
}

/** Answers health reports; capabilities are probed once, at construction. */
export class HealthService {
  private node: () => Promise<NodeHealth | undefined> = async () => undefined;

  private constructor(private readonly info: HealthInfo, private readonly extensions: Health['extensions']) {}

  /** Probes the optional libraries once at start, so each health request costs nothing. */
  static async create(info: HealthInfo): Promise<HealthService> {
    // gd: thumbnails can be made (sharp loads and encodes), probed by the one owner of sharp.
    const [gd, zip] = await Promise.all([isImageProcessingAvailable(), loads(['archiver', 'yauzl'])]);
    return new HealthService(info, { gd, zip });
  }

  /** Sets where the node's git part of the report comes from (services.ts, once the git services exist). */
  reportNodeWith(node: () => Promise<NodeHealth>): void {
    this.node = node;
  }

  /** The report with the node's role, head and lag (GET /health). Throws what reading HEAD throws. */
  async check(now: Date = new Date()): Promise<Health & { git?: NodeHealth }> {
    const git = await this.node();
    return git === undefined ? this.report(now) : { ...this.report(now), git };
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
