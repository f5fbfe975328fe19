// Command-line flags for the project's scripts: node's parseArgs, with a mistake (an unknown flag,
// a flag without its value) told in one line with the script's usage and exit code 2, not thrown
// as a stack trace.
import { parseArgs, type ParseArgsConfig } from 'node:util';

export function parseCliArgs<T extends ParseArgsConfig>(
  config: T,
  usage: string,
): ReturnType<typeof parseArgs<T>> {
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
