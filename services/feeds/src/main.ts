// Standalone feeds process.
import { runServiceMain } from '@murmur/runtime';
import { feedsService } from './index.js';

await runServiceMain(feedsService);
