import { PATHS } from '../core/site.ts';
import { site, textFile } from '../build/page-data.ts';

export async function GET(): Promise<Response> {
  return textFile((await site()).files[PATHS.robots]);
}
