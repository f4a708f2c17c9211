// The push service's named queries over its own collections, and their indexes: every query the
// service makes is here, and nothing outside this folder touches a collection (store/documents.ts has
// the documents).
import { randomId } from '@murmur/core';
import { DuplicateKeyError, nextId, type Collection, type Store } from '@murmur/store';
import type {
  AppDoc,
  DeliveryChannel,
  DeliveryDoc,
  DeviceDoc,
  FanoutDoc,
  PushEnv,
  SettingDoc,
  WebSubDoc,
} from './documents.js';

export type * from './documents.js';
export { PUSH_ENVS } from './documents.js';

export interface DeviceKey {
  token: string;
  pushEnv: PushEnv;
  appName: string;
}

type NewDevice = Pick<DeviceDoc, 'userId' | 'token' | 'pushEnv' | 'appName' | 'createdAt'>;
type NewDelivery = Pick<
  DeliveryDoc,
  | 'channel'
  | 'eventId'
  | 'deviceId'
  | 'userId'
  | 'appName'
  | 'pushEnv'
  | 'tokenHint'
  | 'attempt'
  | 'status'
  | 'reason'
  | 'outcome'
  | 'at'
  | 'expiresAt'
>;

const finalId = (eventId: string, deviceId: number, channel: DeliveryChannel = 'apns') =>
  channel === 'apns' ? `${eventId}\u0000${deviceId}` : `${eventId}\u0000${channel}${deviceId}`;

export class PushStore {
  private readonly devices: Collection<DeviceDoc>;
  private readonly apps: Collection<AppDoc>;
  private readonly fanouts: Collection<FanoutDoc>;
  private readonly deliveries: Collection<DeliveryDoc>;
  private readonly webSubs: Collection<WebSubDoc>;
  private readonly settings: Collection<SettingDoc>;

  constructor(readonly store: Store) {
    this.devices = store.collection<DeviceDoc>('devices');
    this.apps = store.collection<AppDoc>('apps');
    this.fanouts = store.collection<FanoutDoc>('fanouts');
    this.deliveries = store.collection<DeliveryDoc>('deliveries');
    this.webSubs = store.collection<WebSubDoc>('websubs');
    this.settings = store.collection<SettingDoc>('settings');
  }

  async createIndexes(): Promise<void> {
    await Promise.all([
      // One record per (token, env, app), whatever the concurrency.
      this.devices.createIndex({ token: 1, pushEnv: 1, appName: 1 }, { unique: true }),
      this.devices.createIndex({ userId: 1 }),
      this.fanouts.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 }),
      this.deliveries.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 }),
      this.deliveries.createIndex({ userId: 1 }),
      this.webSubs.createIndex({ endpoint: 1 }, { unique: true }),
      this.webSubs.createIndex({ userId: 1 }),
    ]);
  }

  // ---- devices ---------------------------------------------------------------------------------

  deviceByKey(key: DeviceKey): Promise<DeviceDoc | null> {
    return this.devices.findOne({ token: key.token, pushEnv: key.pushEnv, appName: key.appName });
  }

  /** The devices of `ids` still registered (one primary-key read for a whole delivery job). */
  devicesByIds(ids: number[]): Promise<DeviceDoc[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.devices.find({ _id: { $in: ids } }, { sort: { _id: 1 } });
  }

  /** Inserts a device; null when (token, env, app) was taken meanwhile. */
  async insertDevice(doc: NewDevice): Promise<DeviceDoc | null> {
    const device = { _id: await nextId(this.store, 'devices'), ...doc } as DeviceDoc;
    try {
      await this.devices.insertOne(device);
      return device;
    } catch (err) {
      if (err instanceof DuplicateKeyError) return null;
      throw err;
    }
  }

  /** Removes the record of `key` when it belongs to `userId`; true when one was removed. */
  async deleteDeviceOfUser(userId: number, key: DeviceKey): Promise<boolean> {
    const { deletedCount } = await this.devices.deleteOne({ ...key, userId });
    return deletedCount > 0;
  }

  /** Whether a user other than `userId` holds `token` (in any environment or app). */
  async tokenHeldByOtherUser(token: string, userId: number): Promise<boolean> {
    return (await this.devices.findOne({ token, userId: { $ne: userId } })) !== null;
  }

  /** Removes the device if it is still the record `id` (APNs said the token is gone). */
  async deleteDeviceById(id: number): Promise<boolean> {
    const { deletedCount } = await this.devices.deleteOne({ _id: id });
    return deletedCount > 0;
  }

  /**
   * Moves the devices registered under `from` (the name used while no app existed) to `to`; a device
   * already registered under `to` as well keeps that record only.
   */
  async moveDevicesToApp(from: string, to: string): Promise<number> {
    let moved = 0;
    for (const device of await this.devices.find({ appName: from })) {
      try {
        moved += (await this.devices.updateOne({ _id: device._id }, { $set: { appName: to } })).modifiedCount;
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
        await this.devices.deleteOne({ _id: device._id });
      }
    }
    return moved;
  }

  /** The user's devices, oldest first, optionally narrowed. */
  devicesOfUser(userId: number, narrow: Partial<DeviceKey> = {}): Promise<DeviceDoc[]> {
    const filter: Record<string, unknown> = { userId };
    if (narrow.pushEnv !== undefined) filter.pushEnv = narrow.pushEnv;
    if (narrow.appName !== undefined) filter.appName = narrow.appName;
    if (narrow.token !== undefined) filter.token = narrow.token;
    return this.devices.find(filter, { sort: { _id: 1 } });
  }

  /** Keeps the user's `max` newest devices; returns how many older ones were dropped. */
  async trimDevicesOfUser(userId: number, max: number): Promise<number> {
    const all = await this.devices.find({ userId }, { sort: { _id: -1 }, projection: { _id: 1 } });
    const drop = all.slice(max).map((d) => d._id);
    if (drop.length === 0) return 0;
    const { deletedCount } = await this.devices.deleteMany({ _id: { $in: drop } });
    return deletedCount;
  }

  // ---- web push subscriptions ------------------------------------------------------------------

  webSubByEndpoint(endpoint: string): Promise<WebSubDoc | null> {
    return this.webSubs.findOne({ endpoint });
  }

  webSubById(id: number): Promise<WebSubDoc | null> {
    return this.webSubs.findOne({ _id: id });
  }

  webSubsOfUser(userId: number): Promise<WebSubDoc[]> {
    return this.webSubs.find({ userId }, { sort: { _id: 1 } });
  }

  /** Inserts a subscription; null when its endpoint was taken meanwhile. */
  async insertWebSub(doc: Pick<WebSubDoc, 'userId' | 'endpoint' | 'p256dh' | 'auth' | 'createdAt'>) {
    const sub = { _id: await nextId(this.store, 'websubs'), ...doc } as WebSubDoc;
    try {
      await this.webSubs.insertOne(sub);
      return sub;
    } catch (err) {
      if (err instanceof DuplicateKeyError) return null;
      throw err;
    }
  }

  async deleteWebSubById(id: number): Promise<boolean> {
    return (await this.webSubs.deleteOne({ _id: id })).deletedCount > 0;
  }

  async deleteWebSubOfUser(userId: number, endpoint: string): Promise<boolean> {
    return (await this.webSubs.deleteOne({ userId, endpoint })).deletedCount > 0;
  }

  async trimWebSubsOfUser(userId: number, max: number): Promise<void> {
    const all = await this.webSubs.find({ userId }, { sort: { _id: -1 }, projection: { _id: 1 } });
    const drop = all.slice(max).map((d) => d._id);
    if (drop.length) await this.webSubs.deleteMany({ _id: { $in: drop } });
  }

  // ---- settings --------------------------------------------------------------------------------

  setting(id: string): Promise<SettingDoc | null> {
    return this.settings.findOne({ _id: id });
  }

  /** Stores the setting unless one exists (two replicas starting at once keep the first). */
  async settingOnce(doc: SettingDoc): Promise<SettingDoc> {
    try {
      await this.settings.insertOne(doc);
      return doc;
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      return (await this.setting(doc._id))!;
    }
  }

  // ---- apps ------------------------------------------------------------------------------------

  appByName(name: string): Promise<AppDoc | null> {
    return this.apps.findOne({ _id: name });
  }

  defaultApp(): Promise<AppDoc | null> {
    return this.apps.findOne({ isDefault: true });
  }

  listApps(): Promise<AppDoc[]> {
    return this.apps.find({}, { sort: { _id: 1 } });
  }

  /** Creates or replaces the app's credentials (a replaced app keeps its default mark); true when new. */
  async putApp(doc: AppDoc): Promise<boolean> {
    const { _id, createdAt, isDefault, ...rest } = doc;
    const res = await this.apps.updateOne(
      { _id },
      { $set: rest, $setOnInsert: { createdAt, isDefault } },
      { upsert: true },
    );
    return res.upsertedId !== undefined;
  }

  /** Makes `name` the one default app. */
  async makeDefault(name: string): Promise<void> {
    await this.apps.updateMany({ _id: { $ne: name }, isDefault: true }, { $set: { isDefault: false } });
    await this.apps.updateOne({ _id: name }, { $set: { isDefault: true } });
  }

  async deleteApp(name: string): Promise<boolean> {
    const { deletedCount } = await this.apps.deleteOne({ _id: name });
    return deletedCount > 0;
  }

  // ---- fan-out markers -------------------------------------------------------------------------

  fanoutDone(id: string): Promise<boolean> {
    return this.fanouts.findOne({ _id: id }).then((doc) => doc !== null);
  }

  async markFanout(id: string, expiresAt: Date): Promise<void> {
    try {
      await this.fanouts.insertOne({ _id: id, expiresAt });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
  }

  // ---- delivery log ----------------------------------------------------------------------------

  /**
   * Writes an attempt. A final one (delivered, dead, removed) has the id `eventId␀deviceId`, so
   * deliverySettled() is one primary-key read and two runs of one job record one final outcome.
   */
  async logDelivery(doc: NewDelivery): Promise<void> {
    const final = doc.outcome !== 'retry' && doc.outcome !== 'skipped';
    const _id = final ? finalId(doc.eventId, doc.deviceId, doc.channel) : randomId();
    try {
      await this.deliveries.insertOne({ _id, ...doc } as DeliveryDoc);
    } catch (err) {
      if (!(final && err instanceof DuplicateKeyError)) throw err;
    }
  }

  /**
   * Writes several attempts in one store write (one transaction on the embedded store), with the ids
   * logDelivery() would give them. An ordered insert stops at a final entry already written (two runs
   * of one job); the entries of the batch not yet stored are then written one by one, and a final
   * entry that exists already is kept as it is.
   */
  async logDeliveries(docs: NewDelivery[]): Promise<void> {
    if (docs.length === 0) return;
    const rows = docs.map((doc) => {
      const final = doc.outcome !== 'retry' && doc.outcome !== 'skipped';
      return {
        _id: final ? finalId(doc.eventId, doc.deviceId, doc.channel) : randomId(),
        ...doc,
      } as DeliveryDoc;
    });
    try {
      await this.deliveries.insertMany(rows);
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      const stored = await this.deliveries.find(
        { _id: { $in: rows.map((r) => r._id) } },
        { projection: { _id: 1 } },
      );
      const have = new Set(stored.map((r) => r._id));
      for (const row of rows) {
        if (have.has(row._id)) continue;
        try {
          await this.deliveries.insertOne(row);
        } catch (e) {
          if (!(e instanceof DuplicateKeyError)) throw e;
        }
      }
    }
  }

  /** The devices of `deviceIds` whose delivery of `eventId` is settled for good (one read for a job). */
  async settledDevices(eventId: string, deviceIds: number[]): Promise<Set<number>> {
    if (deviceIds.length === 0) return new Set();
    const ids = deviceIds.map((id) => finalId(eventId, id));
    const found = await this.deliveries.find({ _id: { $in: ids } }, { projection: { _id: 1, deviceId: 1 } });
    return new Set(found.map((d) => d.deviceId));
  }

  /** Whether (event, device) was already delivered or settled for good (a rerun job sends nothing). */
  async deliverySettled(eventId: string, deviceId: number, channel?: DeliveryChannel): Promise<boolean> {
    return (
      (await this.deliveries.findOne(
        { _id: finalId(eventId, deviceId, channel) },
        { projection: { _id: 1 } },
      )) !== null
    );
  }

  /** Newest first, entries still within their retention. */
  recentDeliveries(filter: { userId?: number; since: Date; limit: number }): Promise<DeliveryDoc[]> {
    const query: Record<string, unknown> = { at: { $gte: filter.since } };
    if (filter.userId !== undefined) query.userId = filter.userId;
    return this.deliveries.find(query, { sort: { at: -1 }, limit: filter.limit });
  }

  deliveriesOfEvent(eventId: string): Promise<DeliveryDoc[]> {
    return this.deliveries.find({ eventId });
  }
}
