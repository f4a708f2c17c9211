// A service declares what it is made of; the runtime builds it and runs its lifecycle in one order for
// every service (docs/service-template.md):
//
//   create: job queue and outbox (when declared) → context(rt) → job handlers → app(ctx, http)
//   start (after the app listens): bus subscriptions and handlers → outbox relay → jobs → workers
//   stop (after HTTP has drained): workers → jobs → subscriptions (last first) → outbox → what
//         rt opened (fetchers, blob stores) and rt.onStop cleanups, last first
//
// Subscriptions come before the outbox and the jobs so that the service hears everything from the
// moment it starts working; the jobs stop first so that no handler runs against a bus or store being
// closed. startService (service.ts) then closes the bus and the store it opened.
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Bus, Subscription } from '@murmur/bus';
import { type BaseConfig, type Clock, type Logger } from '@murmur/core';
import {
  createSafeFetcher,
  outboundPolicyFromConfig,
  type Resolver,
  type SafeFetcher,
  type SafeFetcherOptions,
} from '@murmur/fetch';
import type { CredentialVerifier, HttpAppOptions } from '@murmur/http';
import { identityVerifier } from '@murmur/identity-client';
import { createOutbox, JobQueue, type JobQueueOptions, type Outbox, type OutboxOptions } from '@murmur/jobs';
import type { BlobStore, Store } from '@murmur/store';
import { openBlobStore } from './open-blobs.js';
import type { ServiceDefinition, ServiceInstance } from './service.js';

/** The job queue's options a service may set; the runtime gives it the service, logger and clock. */
export type JobsSpec = Omit<JobQueueOptions, 'service' | 'logger' | 'clock'>;
/** The outbox's options a service may set; the runtime gives it the store, bus, logger and service. */
export type OutboxSpec = Omit<OutboxOptions, 'store' | 'bus' | 'logger' | 'service'>;

/** What every service's createHttpApp takes from the runtime (spread it: `createHttpApp({ ...http, … })`). */
export type ServiceHttpOptions = Required<
  Pick<
    HttpAppOptions,
    'service' | 'logger' | 'config' | 'store' | 'bus' | 'clock' | 'credentials' | 'readiness'
  >
>;

/** A piece of background work beside the jobs (the reader's feed scheduler). */
export interface Worker {
  start(): void | Promise<void>;
  stop(): Promise<void>;
}

/** What the runtime has built for a service when its `context` runs. */
export interface ServiceRuntime<C extends BaseConfig> {
  readonly name: string;
  readonly config: C;
  readonly logger: Logger;
  /** The service's own store (STORE_URL). */
  readonly store: Store;
  readonly bus: Bus;
  /** The process clock: tests move it. */
  readonly clock: Clock;
  /** The service's job queue; it runs only when the declaration has `jobs`. */
  readonly jobs: JobQueue;
  /** The service's outbox (docs/adr/0009-outbox-and-self-healing-bus.md); only when declared. */
  readonly outbox: Outbox;
  /** Who checks tokens and logins: identity, over the bus. */
  readonly credentials: CredentialVerifier;
  /**
   * A safe fetcher under the configuration's outbound policy (OUTBOUND_ALLOW_PRIVATE,
   * OUTBOUND_ALLOW_HOSTS) with PUBLIC_URL as its base; closed at stop.
   */
  fetcher(
    options?: { lookup?: Resolver } & Omit<SafeFetcherOptions, 'policy' | 'baseUrl' | 'lookup'>,
  ): SafeFetcher;
  /** The service's blob store on STORE_URL (or `url`): closed at stop and pinged by /readyz. */
  blobs(options?: { url?: string }): Promise<BlobStore>;
  /** Something to close at stop, after the jobs and the bus subscriptions (last registered, first run). */
  onStop(what: string, close: () => void | Promise<void>): void;
}

export interface ServiceDeclaration<C extends BaseConfig, Ctx> {
  name: string;
  config: z.ZodType<C>;
  /** The service's jobs run on a queue with these options (or the config's); absent: no jobs run. */
  jobs?: JobsSpec | ((config: C, clock: Clock) => JobsSpec);
  /** Run the jobs in this process. Default true; false queues them only (tests of the queue). */
  runJobs?: boolean;
  /** The service records events through an outbox with these options; absent: no outbox. */
  outbox?: OutboxSpec | ((config: C, clock: Clock) => OutboxSpec);
  /** Builds the service's context from what the runtime made (its store wrapper, caches, clients). */
  context(rt: ServiceRuntime<C>): Promise<Ctx>;
  /** Registers the job handlers on the queue (jobs/index.ts). */
  registerJobs?(ctx: Ctx, jobs: JobQueue): void;
  /** Builds the HTTP app (app.ts): `createHttpApp({ ...http, … })` and the route groups. */
  app(ctx: Ctx, http: ServiceHttpOptions): Promise<FastifyInstance>;
  /** Every bus.handle / subscribe / listen of the service (bus.ts). */
  wireBus?(ctx: Ctx): Promise<Subscription[]>;
  /** Background work started after the jobs and stopped before them. */
  workers?(ctx: Ctx): Worker[];
}

function resolveSpec<C, S>(
  spec: S | ((config: C, clock: Clock) => S) | undefined,
  config: C,
  clock: Clock,
): S | undefined {
  return typeof spec === 'function' ? (spec as (config: C, clock: Clock) => S)(config, clock) : spec;
}

/** The definition startService and runServiceMain start, from a service's declaration. */
export function defineService<C extends BaseConfig, Ctx>(
  declaration: ServiceDeclaration<C, Ctx>,
): ServiceDefinition<C> {
  return {
    name: declaration.name,
    configSchema: declaration.config,
    async create({ config, logger, store, bus, clock }): Promise<ServiceInstance> {
      const name = declaration.name;
      const cleanups: Array<[string, () => void | Promise<void>]> = [];
      const readiness: Record<string, { ping(): Promise<void> }> = {};
      const closeOpened = async (): Promise<void> => {
        let first: unknown;
        for (const [what, close] of cleanups.reverse()) {
          try {
            await close();
          } catch (err) {
            logger.error({ err }, `closing ${what} failed`);
            first ??= err;
          }
        }
        cleanups.length = 0;
        if (first !== undefined) throw first;
      };

      const jobsSpec = resolveSpec(declaration.jobs, config, clock);
      const jobs = new JobQueue(store, { ...jobsSpec, service: name, logger, clock });
      const outboxSpec = resolveSpec(declaration.outbox, config, clock);
      const outbox = outboxSpec
        ? createOutbox({ ...outboxSpec, store, bus, logger, service: name })
        : undefined;
      const credentials = identityVerifier(bus, logger);

      const rt: ServiceRuntime<C> = {
        name,
        config,
        logger,
        store,
        bus,
        clock,
        jobs,
        get outbox(): Outbox {
          if (!outbox) throw new Error(`${name}: declare \`outbox\` to record events through one`);
          return outbox;
        },
        credentials,
        fetcher(options = {}) {
          const { lookup, ...rest } = options;
          const fetcher = createSafeFetcher({
            ...rest,
            policy: outboundPolicyFromConfig(config),
            baseUrl: config.PUBLIC_URL,
            ...(lookup ? { lookup } : {}),
          });
          cleanups.push(['fetcher', () => fetcher.close()]);
          return fetcher;
        },
        async blobs(options = {}) {
          const blobs = await openBlobStore(options.url ?? config.STORE_URL, { service: name });
          cleanups.push(['blob store', () => blobs.close()]);
          readiness.blobs = blobs;
          return blobs;
        },
        onStop(what, close) {
          cleanups.push([what, close]);
        },
      };

      let app: FastifyInstance;
      let ctx: Ctx;
      try {
        ctx = await declaration.context(rt);
        declaration.registerJobs?.(ctx, jobs);
        app = await declaration.app(ctx, {
          service: name,
          logger,
          config,
          store,
          bus,
          clock,
          credentials,
          readiness,
        });
      } catch (err) {
        await closeOpened().catch(() => undefined);
        throw err;
      }

      const runJobs = jobsSpec !== undefined && declaration.runJobs !== false;
      const workers = declaration.workers?.(ctx) ?? [];
      let subscriptions: Subscription[] = [];
      return {
        app,
        async start() {
          subscriptions = (await declaration.wireBus?.(ctx)) ?? [];
          await outbox?.start();
          if (runJobs) await jobs.start();
          for (const worker of workers) await worker.start();
        },
        async stop() {
          for (const worker of [...workers].reverse()) await worker.stop();
          if (runJobs) await jobs.stop();
          for (const subscription of subscriptions.reverse()) await subscription.unsubscribe();
          await outbox?.stop();
          await closeOpened();
        },
      };
    },
  };
}
