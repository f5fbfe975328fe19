// Starts the real Express app over a built dist directory on port 0, for integration tests.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createRequestListener, type AppOptions } from '../../src/http/app.ts';
import { loadPublishedSite, type PublishedSite } from '../../src/http/published-site.ts';
import { FIXTURE_SITE_URL } from './build-site.ts';

export interface RunningServer {
  url: string;
  site: PublishedSite;
  close(): Promise<void>;
}

export const TEST_MCP_SECRET = 'integration-test-session-secret';

export interface StartOptions {
  siteUrl?: string;
  mcpSessionSecret?: string;
  mcpAllowedOrigins?: string[];
  /** Everything else the server takes: rate limits, proxy trust, logger, metrics. */
  app?: Partial<AppOptions>;
}

export async function startServer(
  distDir: string,
  options: StartOptions = {},
): Promise<RunningServer> {
  const site = await loadPublishedSite(distDir);
  const listener = createRequestListener({
    site,
    siteUrl: options.siteUrl ?? FIXTURE_SITE_URL,
    mcpSessionSecret: options.mcpSessionSecret ?? TEST_MCP_SECRET,
    mcpAllowedOrigins: options.mcpAllowedOrigins ?? [],
    ...options.app,
  });
  const server: Server = await new Promise((resolve) => {
    // As the service's own server: a request without Host reaches the app, which refuses it.
    const listening = createServer({ requireHostHeader: false }, listener).listen(
      0,
      '127.0.0.1',
      () => resolve(listening),
    );
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    site,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
