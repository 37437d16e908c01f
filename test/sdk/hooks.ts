/**
 * The buyer's webhook endpoint on 127.0.0.1: every POST recorded as it arrived (headers and raw
 * bytes) and answered 200, so that the SDK's emitter delivers once; the test hands each recorded
 * delivery to an adcp-decode receiver as a web Request.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  readonly url: string;
  readonly headers: Headers;
  readonly body: Uint8Array;
}

export interface HookEndpoint {
  readonly origin: string;
  readonly deliveries: Delivery[];
  /** The first delivery whose body satisfies `match`, waiting for it (up to `ms`). */
  next(match: (body: unknown) => boolean, ms?: number): Promise<Delivery>;
  close(): Promise<void>;
}

export async function startHookEndpoint(): Promise<HookEndpoint> {
  const deliveries: Delivery[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
      deliveries.push({ url: req.url ?? '/', headers, body: new Uint8Array(Buffer.concat(chunks)) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const parsed = (d: Delivery): unknown => JSON.parse(new TextDecoder().decode(d.body));
  return {
    origin,
    deliveries,
    async next(match, ms = 10_000) {
      const until = Date.now() + ms;
      for (;;) {
        const found = deliveries.find((d) => match(parsed(d)));
        if (found !== undefined) return found;
        if (Date.now() > until) throw new Error(`no matching webhook within ${ms} ms (${deliveries.length} delivered)`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A recorded delivery as the web Request a receiver takes. */
export function asRequest(origin: string, delivery: Delivery): Request {
  return new Request(`${origin}${delivery.url}`, { method: 'POST', headers: delivery.headers, body: delivery.body });
}
