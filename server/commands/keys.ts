import { defineCommand } from 'citty';
import { configFromEnv } from '../config.ts';
import { isPlanName, PLAN_NAMES, type PlanName } from '../keys/plans.ts';
import { KeyStore } from '../keys/store.ts';

const dataArg = { data: { type: 'string', description: 'data directory (default $PERPS_DATA_DIR or ./data)' } } as const;

function storeOf(data: string | undefined): KeyStore {
  return KeyStore.open(data ?? configFromEnv().dataDir);
}

function planOf(value: string): PlanName {
  if (!isPlanName(value)) throw new Error(`unknown plan "${value}": use one of ${PLAN_NAMES.join(', ')}`);
  return value;
}

/** `keys create|list|revoke|plan`: key administration (contract §3). Output goes to stdout. */
export const keysCommand = defineCommand({
  meta: { name: 'keys', description: 'Create, list, revoke API keys and change their plan' },
  subCommands: {
    create: defineCommand({
      meta: { description: 'Create a key; prints it once, as the last line' },
      args: {
        ...dataArg,
        plan: { type: 'string', required: true, description: PLAN_NAMES.join(' | ') },
        label: { type: 'string', description: 'free text' },
        account: { type: 'string', description: 'owning account (default: the key id)' },
      },
      run({ args }) {
        const { key, record } = storeOf(args.data).create({ plan: planOf(args.plan), label: args.label ?? null, account: args.account ?? null });
        process.stdout.write(`created key ${record.id} (plan ${record.plan}, account ${record.account}); it is shown only now:\n${key}\n`);
      },
    }),
    list: defineCommand({
      meta: { description: 'List keys (no secrets)' },
      args: { ...dataArg },
      run({ args }) {
        for (const k of storeOf(args.data).list()) {
          process.stdout.write(`${k.id}\t${k.plan}\t${k.account}\t${k.revoked_at ? `revoked ${k.revoked_at}` : 'active'}\t${k.label ?? ''}\n`);
        }
      },
    }),
    revoke: defineCommand({
      meta: { description: 'Revoke a key (effective immediately, also in a running server)' },
      args: { ...dataArg, id: { type: 'positional', required: true, description: 'key id' } },
      run({ args }) {
        const k = storeOf(args.data).revoke(args.id);
        process.stdout.write(`revoked ${k.id}\n`);
      },
    }),
    plan: defineCommand({
      meta: { description: "Change a key's plan (effective without a restart)" },
      args: {
        ...dataArg,
        id: { type: 'positional', required: true, description: 'key id' },
        plan: { type: 'positional', required: true, description: PLAN_NAMES.join(' | ') },
      },
      run({ args }) {
        const k = storeOf(args.data).setPlan(args.id, planOf(args.plan));
        process.stdout.write(`${k.id} is now on plan ${k.plan}\n`);
      },
    }),
  },
});
