import { randomBytes } from 'node:crypto';
import { Objm } from '@nats-io/obj';
import { connect } from '@nats-io/transport-node';

export const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/**
 * STORAGE=nats for a test on the machine's NATS: a bucket of its own (named after the test), and
 * `destroy` to remove it and everything in it afterwards.
 */
export function testNatsStorage(name: string) {
  const natsBucket = `${name}_${randomBytes(5).toString('hex')}`;
  return {
    storage: { kind: 'nats' as const, natsUrl: NATS_URL, natsBucket },
    async destroy(): Promise<void> {
      const nc = await connect({ servers: NATS_URL });
      try {
        await (await new Objm(nc).open(natsBucket)).destroy();
      } finally {
        await nc.close();
      }
    },
  };
}
