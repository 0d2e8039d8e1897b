// The health report of SPEC "Health response": which optional capabilities load.
// Each capability is asked of the folder that owns its libraries, which tries them in a child
// process, so that health never fails because one is missing and the server does not hold
// them (~14 MiB) until it needs them; and only when a report first asks: loading sharp, archiver
// and yauzl and encoding a test image cost ~0.3 s of CPU, which a start would otherwise spend
// before its first answer.
import { once } from '../lib/once.ts';
import { canZip } from './backups/zip-support.ts';
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

/** Answers health reports; capabilities are probed once, when a report first needs them. */
export class HealthService {
  private node: () => Promise<NodeHealth | undefined> = async () => undefined;
  // Probed once, so later reports cost nothing. gd: thumbnails can be made (sharp loads and encodes); zip: backups can be written and read.
  private readonly extensions = once(async (): Promise<Health['extensions']> => {
    const [gd, zip] = await Promise.all([isImageProcessingAvailable(), canZip()]);
    return { gd, zip };
  });

  constructor(readonly info: HealthInfo) {}

  /** Sets where the node's git part of the report comes from (services.ts, once the git services exist). */
  reportNodeWith(node: () => Promise<NodeHealth>): void {
    this.node = node;
  }

  /** The report with the node's role, head and lag (GET /health). Throws what reading HEAD throws. */
  async check(now: Date = new Date()): Promise<Health & { git?: NodeHealth }> {
    const [report, git] = await Promise.all([this.report(now), this.node()]);
    return git === undefined ? report : { ...report, git };
  }

  /** The health report at `now`; always ok while the process answers. */
  async report(now: Date = new Date()): Promise<Health> {
    const extensions = await this.extensions();
    return { ok: true, name: this.info.name, version: this.info.version, time: now.toISOString(), extensions: { ...extensions } };
  }
}
