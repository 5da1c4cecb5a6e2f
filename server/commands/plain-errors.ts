import type { CommandDef } from 'citty';
import { log } from '../log.ts';

// citty's CommandDef is generic over each command's own args: `any` here, as citty's SubCommandsDef has it
type AnyCommand = CommandDef<any>;

/** A subcommand given as an object (not a function or promise resolving to one). */
function isPlainCommand(sub: unknown): sub is AnyCommand {
  return typeof sub === 'object' && sub !== null && !('then' in sub);
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
    run: run && (async (ctx) => {
      try {
        return await run(ctx);
      } catch (err) {
        const error = err instanceof Error ? err : new Error(String(err));
        log.error(error.message);
        log.debug(error.stack);
        process.exit(1);
      }
    }),
    subCommands: subCommands && typeof subCommands === 'object' && !('then' in subCommands)
      ? Object.fromEntries(Object.entries(subCommands).map(([name, sub]) => [name, isPlainCommand(sub) ? withPlainErrors(sub) : sub]))
      : subCommands,
  };
}
