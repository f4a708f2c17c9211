// Standalone reader process.
import { runServiceMain } from '@murmur/platform';
import { readerService } from './index.js';

await runServiceMain(readerService);
