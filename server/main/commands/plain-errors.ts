import type { CommandDef } from 'citty';
import { log } from '../../lib/log.ts';

// citty's CommandDef is generic over each command's own args: `any` here, as citty's SubCommandsDef has it
type AnyCommand = CommandDef<any>;

/** Given as an object, not as a function or a promise resolving to one (citty's `Resolvable`). */
function isResolved<T extends object>(value: unknown): value is T {
  return typeof value === 'object' && value !== null && !('then' in value);
}

/**
 * `cmd` and its subcommands with their errors printed as one line through the logger (the stack
 * too at PERPS_LOG_LEVEL 4 and above), exit code 1. citty's own handler prints every error with
 * its stack, which for a bad flag or an unknown plan buries the one line that matters.
 */
export function withPlainErrors(cmd: AnyCommand): AnyCommand {
  const { run, subCommands } = cmd;
  return {
    ...cmd,
    run:
      run &&
      (async (ctx) => {
        try {
          return await run(ctx);
        } catch (err) {
          const error = err instanceof Error ? err : new Error(String(err));
          log.error(error.message);
          log.debug(error.stack);
          process.exit(1);
        }
      }),
    subCommands: isResolved<Record<string, unknown>>(subCommands) ? Object.fromEntries(Object.entries(subCommands).map(([name, sub]) => [name, plainSub(sub)])) : subCommands,
  };
}

/**
 * A subcommand with plain errors however citty is given it: an object, or a function or promise
 * giving one (a command loaded when it runs, server/main/cli.ts), wrapped once it is there.
 */
function plainSub(sub: unknown): AnyCommand | (() => Promise<AnyCommand>) | Promise<AnyCommand> {
  if (isResolved<AnyCommand>(sub)) return withPlainErrors(sub);
  if (typeof sub === 'function') return async () => withPlainErrors(await (sub as () => AnyCommand | Promise<AnyCommand>)());
  return Promise.resolve(sub as Promise<AnyCommand>).then(withPlainErrors);
}
