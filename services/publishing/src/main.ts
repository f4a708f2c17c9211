// Standalone publishing process.
import { runServiceMain } from '@murmur/runtime';
import { publishingService } from './index.js';

await runServiceMain(publishingService);
