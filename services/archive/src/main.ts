// Standalone archive process.
import { runServiceMain } from '@murmur/runtime';
import { archiveService } from './index.js';

await runServiceMain(archiveService);
