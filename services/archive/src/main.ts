// Standalone archive process.
import { runServiceMain } from '@murmur/platform';
import { archiveService } from './index.js';

await runServiceMain(archiveService);
