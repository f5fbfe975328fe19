// Command-line flags for the project's scripts: node's parseArgs, with a mistake (an unknown flag,
// a flag without its value) told in one line with the script's usage and exit code 2, not thrown
// as a stack trace.
import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * `--help` or `-h` anywhere among the arguments (before a `--` that ends the flags): the usage on
 * stdout and exit 0, whatever else was given.
 */
export function exitOnHelp(usage: string, args: readonly string[] = process.argv.slice(2)): void {
  const flags = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
  if (flags.includes('--help') || flags.includes('-h')) {
    console.log(`usage: ${usage}`);
    process.exit(0);
  }
}

export function parseCliArgs<T extends ParseArgsConfig>(
  config: T,
  usage: string,
): ReturnType<typeof parseArgs<T>> {
  exitOnHelp(usage);
  try {
    return parseArgs(config);
  } catch (error) {
    if (
      !(error instanceof TypeError) ||
      !String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS')
    )
      throw error;
    console.error(`${error.message}\nusage: ${usage}`);
    process.exit(2);
  }
}
