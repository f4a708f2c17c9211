// Every service this build contains, in start order. The single-process launcher starts them all;
// adding a service to Murmur means adding it here (and to the gateway's targets, which follow from this list).
import type { ServiceDefinition } from '@murmur/runtime';
import { archiveService } from '@murmur/archive';
import { federationService } from '@murmur/federation';
import { feedsService } from '@murmur/feeds';
import { identityService } from '@murmur/identity';
import { microsubService } from '@murmur/microsub';
import { publishingService } from '@murmur/publishing';
import { pushService } from '@murmur/push';
import { readerService } from '@murmur/reader';
import { webmentionService } from '@murmur/webmention';
import { websubService } from '@murmur/websub';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each service has its own config type
export const services: ReadonlyArray<ServiceDefinition<any>> = [
  identityService,
  readerService,
  publishingService,
  feedsService,
  archiveService,
  webmentionService,
  pushService,
  microsubService,
  federationService,
  websubService,
];
