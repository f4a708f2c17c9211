// Standalone publishing process.
import { runServiceMain } from '@murmur/platform';
import { publishingService } from './index.js';

await runServiceMain(publishingService);
