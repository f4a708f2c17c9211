// Standalone reader process.
import { runServiceMain } from '@murmur/runtime';
import { readerService } from './index.js';

await runServiceMain(readerService);
