// Process entry: load config, bind the port, take the data root's lock,
// create services, create the app. The port comes first so that a port in
// use stops the start before anything is written to the data root.
import { createServer, type RequestListener, type Server } from 'node:http';
import { createRequestListener } from './app.ts';
import { loadConfig, settingName, type Config, type ConfigSources } from './config/config.ts';
import { StartupError } from './errors/startup-error.ts';
import { errnoCode } from './lib/errno.ts';
import { createLogger } from './lib/logger.ts';
import { createServices, type Services } from './services.ts';
import { lockDataRoot, type DataLock } from './storage/data-lock.ts';

/** A started server: its services, its URL and a close() that stops everything. */
export interface RunningServer {
  server: Server;
  services: Services;
  /** The address the server listens on, e.g. http://127.0.0.1:3000. */
  url: string;
  close(): Promise<void>;
}

/**
 * Starts the CMS; used by the CLI and by tests (port 0). Throws ConfigError
 * for a malformed setting and StartupError (naming the flag or variable) for a
 * port in use, a data root that cannot be one, or a data root another process holds.
 */
export async function startServer(sources: ConfigSources = {}): Promise<RunningServer> {
  const config = loadConfig(sources);
  // Requests that arrive while the services load wait for them; later ones go straight to the listener.
  let listener: RequestListener | undefined;
  let handle: (loaded: RequestListener) => void = () => undefined;
  const ready = new Promise<RequestListener>((resolve) => {
    handle = resolve;
  });
  const server = createServer((request, response) => {
    if (listener !== undefined) listener(request, response);
    else void ready.then((loaded) => loaded(request, response));
  });
  await listen(server, config, sources);
  let lock: DataLock | undefined;
  let services: Services;
  try {
    lock = await lockDataRoot(config.dataDir, settingName(sources, 'data', 'CMS_DATA_DIR'));
    services = await createServices(config, createLogger(config.logLevel));
  } catch (error) {
    server.close();
    server.closeAllConnections();
    await lock?.release();
    throw error;
  }
  listener = createRequestListener(config, services);
  handle(listener);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    server,
    services,
    url: `http://${host}:${port}`,
    close: async () => {
      // Open live-event streams and replicas' long polls would keep server.close() waiting.
      await services.live.close();
      services.replication?.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await services.close();
      await lock.release();
    },
  };
}

async function listen(server: Server, config: Config, sources: ConfigSources): Promise<void> {
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    const where = `${config.host}:${config.port}`;
    const port = settingName(sources, 'port', 'PORT');
    const host = settingName(sources, 'host', 'HOST');
    switch (errnoCode(error)) {
      case 'EADDRINUSE':
        throw new StartupError(`Port ${config.port} on ${config.host} is already in use: stop what listens there or choose another port with ${port}.`);
      case 'EACCES':
        throw new StartupError(`Listening on ${where} is not permitted for this user: choose a port above 1023 with ${port}.`);
      case 'EADDRNOTAVAIL':
      case 'ENOTFOUND':
        throw new StartupError(`${host} ${config.host} is not an address of this machine.`);
      default:
        throw error;
    }
  }
}
