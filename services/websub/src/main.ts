// Standalone websub (hub) process.
import { runServiceMain } from '@murmur/runtime';
import { websubService } from './index.js';

await runServiceMain(websubService);
