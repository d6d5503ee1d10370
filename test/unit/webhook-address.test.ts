import http from 'node:http';
import { AddressInfo } from 'node:net';
import { clientRegistrationSchema } from '../../shared/clients/client-registration';
import { addressRefusal, nonPublicReason, urlRefusal } from '../../shared/notify/webhook-address';
import { createWebhookSender, Resolver, TryOutcome } from '../../shared/notify/webhook-sender';

/**
 * Issue 36 item 2: a webhook URL must be https to a public address, judged after DNS at each delivery, and the
 * connection goes to the address judged. The refusals are made before any connection: a resolver the test gives
 * answers the names, and receivers on this machine show what was (and was not) reached.
 */

const KEY = 'a signing key of at least thirty-two characters';
const T = Date.UTC(2026, 4, 14, 10, 0, 0);

describe('which addresses are public', () => {
  it.each([
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private (shared address space)'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fd12:3456::1', 'private (unique local)'],
    ['fc00::1', 'private (unique local)'],
    ['fe80::1', 'link-local'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::a00:1', 'reserved (NAT64)'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
  ])('%s is %s', (address, reason) => {
    expect(nonPublicReason(address)).toBe(reason);
    expect(addressRefusal(address, 'https:', { allowLoopbackHttp: true })).toBe(`${address} is ${reason}`);
  });

  it.each(['8.8.8.8', '172.32.0.1', '100.128.0.1', '192.169.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'])(
    '%s is public',
    (address) => {
      expect(nonPublicReason(address)).toBeNull();
      expect(addressRefusal(address, 'https:', { allowLoopbackHttp: false })).toBeNull();
    },
  );

  it('lets http reach loopback alone, and only with AUTH_MODE=local', () => {
    expect(addressRefusal('127.0.0.1', 'http:', { allowLoopbackHttp: true })).toBeNull();
    expect(addressRefusal('::1', 'http:', { allowLoopbackHttp: true })).toBeNull();
    expect(addressRefusal('127.0.0.1', 'http:', { allowLoopbackHttp: false })).toMatch(/not this machine/);
    expect(addressRefusal('8.8.8.8', 'http:', { allowLoopbackHttp: true })).toMatch(/not this machine/);
    expect(addressRefusal('10.0.0.1', 'http:', { allowLoopbackHttp: true })).toMatch(/not this machine/);
    expect(urlRefusal(new URL('http://127.0.0.1/'), { allowLoopbackHttp: false })).toMatch(/AUTH_MODE=local/);
    expect(urlRefusal(new URL('ftp://erp.example/'), { allowLoopbackHttp: true })).toMatch(/https/);
    expect(urlRefusal(new URL('https://u:p@erp.example/'), { allowLoopbackHttp: false })).toMatch(/credentials/);
    expect(urlRefusal(new URL('https://erp.example/'), { allowLoopbackHttp: false })).toBeNull();
  });
});

describe('a webhook in the back-office data', () => {
  const base = { id: 'agrosoft', name: 'A', email: 'a@b.example', sidKey: 's'.repeat(32), apiKey: 'a'.repeat(32) };
  const accepts = (webhook: string) => clientRegistrationSchema.safeParse({ ...base, webhook }).success;

  it('is refused at import when it names a non-public address itself; a name is judged at each delivery', () => {
    for (const url of ['https://10.0.0.5/h', 'https://169.254.169.254/', 'https://[::1]/h', 'https://[fd00::1]/h'])
      expect([url, accepts(url)]).toEqual([url, false]);
    expect(accepts('https://8.8.8.8/h')).toBe(true);
    expect(accepts('https://hooks.erp.example/h')).toBe(true);
    expect(accepts('http://127.0.0.1:7083/hooks/agrosoft')).toBe(true);
  });
});

/** A receiver on this machine that counts what reached it and answers as `answer` says. */
async function receiver(answer: (res: http.ServerResponse) => void) {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => answer(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    hits,
    port: (server.address() as AddressInfo).port,
    closeConnections: () => server.closeAllConnections(),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A resolver that answers every name with the given addresses, and counts the questions. */
function resolverTo(...addresses: string[]): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (host: string) => {
    asked.push(host);
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { asked });
}

const send = (url: string, options: Parameters<typeof createWebhookSender>[1] = {}): Promise<TryOutcome> =>
  createWebhookSender(KEY, options).deliver({ url, clientId: 'agrosoft', eventId: 'evt_job_1_outcome', body: '{}' }, T);

describe('a delivery', () => {
  it.each([
    ['https://10.0.0.5/hooks', '10.0.0.5 is private'],
    ['https://169.254.169.254/latest/meta-data', '169.254.169.254 is link-local'],
    ['https://[::1]/hooks', '::1 is loopback'],
    ['https://[::ffff:127.0.0.1]:8443/hooks', '::ffff:7f00:1 is loopback'],
  ])('to %s is refused, and no resolver is asked about an address', async (url, why) => {
    const resolve = resolverTo('8.8.8.8');
    expect(await send(url, { resolve })).toEqual({ refused: why });
    expect(resolve.asked).toEqual([]);
  });

  it('to a name that resolves to 127.0.0.1 is refused over https, even in AUTH_MODE=local', async () => {
    const resolve = resolverTo('127.0.0.1');
    expect(await send('https://hooks.erp.example/siex', { resolve, allowLoopbackHttp: true })).toEqual({
      refused: 'hooks.erp.example: 127.0.0.1 is loopback',
    });
    expect(resolve.asked).toEqual(['hooks.erp.example']);
  });

  it('to a name with one private address among public ones is refused', async () => {
    const resolve = resolverTo('8.8.8.8', '2001:4860:4860::8888', '10.0.0.7');
    expect(await send('https://hooks.erp.example/siex', { resolve })).toEqual({
      refused: 'hooks.erp.example: 10.0.0.7 is private',
    });
  });

  it('over http is refused unless AUTH_MODE=local, and then only to this machine', async () => {
    const local = await receiver((res) => res.writeHead(204).end());
    try {
      const url = `http://127.0.0.1:${local.port}/hooks`;
      expect(await send(url)).toEqual({ refused: expect.stringMatching(/AUTH_MODE=local/) as string });
      expect(
        await send('http://erp.example/hooks', { allowLoopbackHttp: true, resolve: resolverTo('8.8.8.8') }),
      ).toEqual({ refused: 'erp.example: 8.8.8.8 is not this machine (http)' });
      expect(local.hits).toEqual([]);
      expect(await send(url, { allowLoopbackHttp: true })).toBe(true);
      expect(local.hits).toEqual(['POST /hooks']);
    } finally {
      await local.stop();
    }
  });

  it('connects to the address it checked, asking the resolver once: a name never resolved again', async () => {
    const local = await receiver((res) => res.writeHead(204).end());
    try {
      // No DNS knows this name: only the checked answer can have led the connection to the receiver.
      const resolve = resolverTo('127.0.0.1');
      const outcome = await send(`http://hooks.invalid:${local.port}/x`, { resolve, allowLoopbackHttp: true });
      expect([outcome, resolve.asked, local.hits]).toEqual([true, ['hooks.invalid'], ['POST /x']]);
    } finally {
      await local.stop();
    }
  });

  it('is not delivered by a redirect, whose target is never reached (the metadata address or this machine)', async () => {
    const target = await receiver((res) => res.writeHead(204).end());
    const redirects = (location: string) => (res: http.ServerResponse) => res.writeHead(307, { location }).end();
    const toLoopback = await receiver(redirects(`http://127.0.0.1:${target.port}/stolen`));
    const toMetadata = await receiver(redirects('http://169.254.169.254/latest/meta-data/'));
    try {
      for (const source of [toLoopback, toMetadata]) {
        expect(await send(`http://127.0.0.1:${source.port}/hooks`, { allowLoopbackHttp: true })).toBe(
          'answered HTTP 307 (redirects are not followed)',
        );
        expect(source.hits).toEqual(['POST /hooks']);
      }
      expect(target.hits).toEqual([]);
    } finally {
      await Promise.all([target.stop(), toLoopback.stop(), toMetadata.stop()]);
    }
  });

  it('whose name the resolver never answers is a failed try when the time-out fires', async () => {
    const controller = new AbortController();
    const pending = send('https://hooks.erp.example/siex', {
      resolve: () => new Promise(() => undefined),
      timeout: () => controller.signal,
    });
    controller.abort(new DOMException('the time-out', 'TimeoutError'));
    expect(await pending).toBe('not delivered: TimeoutError');
  });

  it('that takes longer than its time-out is a failed try, ended when the time-out fires', async () => {
    let reached = () => undefined as void;
    const request = new Promise<void>((resolve) => (reached = resolve));
    // Takes the request and never answers.
    const hanging = await receiver(() => reached());
    const controller = new AbortController();
    try {
      const pending = send(`http://127.0.0.1:${hanging.port}/hooks`, {
        allowLoopbackHttp: true,
        timeout: () => controller.signal,
      });
      await request;
      controller.abort(new DOMException('the time-out', 'TimeoutError'));
      expect(await pending).toBe('not delivered: TimeoutError');
    } finally {
      hanging.closeConnections();
      await hanging.stop();
    }
  });
});
