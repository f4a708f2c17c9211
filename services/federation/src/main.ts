// Standalone federation process.
import { runServiceMain } from '@murmur/runtime';
import { federationService } from './index.js';

await runServiceMain(federationService);
