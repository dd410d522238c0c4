/**
 * A stand-in for the server in the orphaned-enhancement test: forks one enhancement as the server
 * does (forkEnhancement), asks it to enhance argv[2] into argv[3], and prints the child's pid once
 * the child reports progress (it is then upscaling). It then waits to be killed.
 */
import { forkEnhancement } from '../../src/modules/pictures/enhance/enhance-child.ts';

const [input, output] = process.argv.slice(2);
const child = forkEnhancement();
child.on('message', (m: { progress?: number }) => {
  if (typeof m.progress === 'number') process.stdout.write(`busy ${child.pid}\n`);
});
child.send({ input, output, scale: 2 });
setInterval(() => undefined, 60_000);
