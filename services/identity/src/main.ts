// Standalone identity process.
import { runServiceMain } from '@murmur/runtime';
import { identityService } from './index.js';

await runServiceMain(identityService);
