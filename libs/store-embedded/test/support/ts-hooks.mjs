// `node --import ./ts-hooks.mjs child.ts`: runs a TypeScript test helper from source in a child
// process, compiled on the fly by swc the way jest compiles the tests (`./x.js` imports → `./x.ts`).
import { register } from 'node:module';

register('./ts-loader.mjs', import.meta.url);
