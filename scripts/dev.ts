// `npm run dev`: the `cms` command run from the TypeScript sources through tsx,
// so a change needs no build (npm start runs the compiled code instead).
import { runCli } from '../src/cli.ts';

await runCli(process.argv.slice(2));
