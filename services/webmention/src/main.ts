// Standalone webmention process.
import { runServiceMain } from '@murmur/runtime';
import { webmentionService } from './index.js';

await runServiceMain(webmentionService);
