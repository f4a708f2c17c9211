// Standalone push process.
import { runServiceMain } from '@murmur/platform';
import { pushService } from './index.js';

await runServiceMain(pushService);
