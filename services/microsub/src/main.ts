// Standalone microsub process.
import { runServiceMain } from '@murmur/platform';
import { microsubService } from './index.js';

await runServiceMain(microsubService);
