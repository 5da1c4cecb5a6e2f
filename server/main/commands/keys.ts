import { defineCommand } from 'citty';
import { configFromEnv } from '../config.ts';
import { getPlan, isPlanName, PLAN_NAMES, type PlanName } from '../../keys/plans.ts';
import { KeyStore } from '../../keys/store.ts';
import { monthOf, readUsageFile } from '../../limits/credits.ts';

const dataArg = { data: { type: 'string', description: 'data directory (default $PERPS_DATA_DIR or ./data)' } } as const;

function storeOf(data: string | undefined): KeyStore {
  return KeyStore.open(data ?? configFromEnv().dataDir);
}

function planOf(value: string): PlanName {
  if (!isPlanName(value)) throw new Error(`unknown plan "${value}": use one of ${PLAN_NAMES.join(', ')}`);
  return value;
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** `keys create|list|revoke|plan|usage`: key administration (contract §3). Output goes to stdout. */
export const keysCommand = defineCommand({
  meta: { name: 'keys', description: 'Create, list, revoke API keys, change their plan, show usage' },
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
    usage: defineCommand({
      meta: { description: "Requests and credits used this UTC month by the key's account (as of the server's last flush, ≤ 2 s old)" },
      args: { ...dataArg, id: { type: 'positional', required: true, description: 'key id' } },
      run({ args }) {
        const dataDir = args.data ?? configFromEnv().dataDir;
        const k = KeyStore.open(dataDir).get(args.id);
        if (!k) throw new Error(`no key with id ${JSON.stringify(args.id)}`);
        const month = monthOf(Date.now());
        const used = readUsageFile(dataDir, month).get(k.account) ?? { requests: 0, credits: 0 };
        const plan = getPlan(k.plan);
        const allowance =
          plan.creditsPerMonth === null ? 'not metered' : `${fmt(used.credits)} of ${fmt(plan.creditsPerMonth)} credits used, ${fmt(Math.max(0, plan.creditsPerMonth - used.credits))} remaining`;
        const rate = plan.requestsPerMinute === null ? 'no rate limit' : `${fmt(plan.requestsPerMinute)} requests/minute per key`;
        process.stdout.write(`key ${k.id} (plan ${k.plan}, account ${k.account}), ${month} (UTC):\n`);
        process.stdout.write(`requests\t${used.requests}\ncredits\t${used.credits}\n`);
        process.stdout.write(`allowance\t${allowance}; ${rate}\n`);
      },
    }),
  },
});
