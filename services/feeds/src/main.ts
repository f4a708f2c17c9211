// Standalone feeds process.
import { runServiceMain } from '@murmur/platform';
import { feedsService } from './index.js';

await runServiceMain(feedsService);
