// Standalone webmention process.
import { runServiceMain } from '@murmur/platform';
import { webmentionService } from './index.js';

await runServiceMain(webmentionService);
