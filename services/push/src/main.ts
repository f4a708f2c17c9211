// Standalone push process.
import { runServiceMain } from '@murmur/runtime';
import { pushService } from './index.js';

await runServiceMain(pushService);
