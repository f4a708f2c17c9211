// Standalone identity process.
import { runServiceMain } from '@murmur/platform';
import { identityService } from './index.js';

await runServiceMain(identityService);
