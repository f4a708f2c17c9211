// Standalone microsub process.
import { runServiceMain } from '@murmur/runtime';
import { microsubService } from './index.js';

await runServiceMain(microsubService);
