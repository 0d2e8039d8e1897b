// Process entry: load config, create services, create the app, listen.
import type { Server } from 'node:http';
import { createApp } from './app.ts';
import { loadConfig, type ConfigSources } from './config/config.ts';
import { createLogger } from './lib/logger.ts';
import { createServices, type Services } from './services.ts';

/** A started server: its services, its URL and a close() that stops everything. */
export interface RunningServer {
  server: Server;
  services: Services;
  /** The address the server listens on, e.g. http://127.0.0.1:3000. */
  url: string;
  close(): Promise<void>;
}

/** Starts the CMS; used by the CLI and by tests (port 0). */
export async function startServer(sources: ConfigSources = {}): Promise<RunningServer> {
  const config = loadConfig(sources);
  const logger = createLogger(config.logLevel);
  const services = await createServices(config, logger);
  const app = createApp(config, services);
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(config.port, config.host, () => resolve(listening));
    listening.once('error', reject);
  });
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
    },
  };
}
