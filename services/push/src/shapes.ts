// Response shapes of the push routes, each written once (presenters are typed by them).
import { z } from 'zod';

export const deviceSchema = z.object({
  token: z.string(),
  app_name: z.string(),
  push_env: z.enum(['production', 'sandbox']),
  created_at: z.string(),
});

export const deviceListSchema = z.array(deviceSchema);

export const registeredSchema = z.object({
  status: z.literal('success'),
  message: z.string(),
  device: deviceSchema,
});

export const statusSchema = z.object({ status: z.enum(['success', 'error']), message: z.string() });

export const appSchema = z.object({
  name: z.string(),
  team_id: z.string(),
  key_id: z.string(),
  topic: z.string(),
  environments: z.array(z.enum(['production', 'sandbox'])),
  default: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const appListSchema = z.object({ apps: z.array(appSchema) });

export const deliveryEntrySchema = z.object({
  at: z.string(),
  channel: z.enum(['apns', 'web']),
  event_id: z.string(),
  user_id: z.number(),
  device_id: z.number(),
  device: z.string(),
  app_name: z.string(),
  push_env: z.enum(['production', 'sandbox']),
  attempt: z.number(),
  status: z.number(),
  reason: z.string(),
  outcome: z.enum(['delivered', 'retry', 'dead', 'removed', 'skipped']),
});

export const deliveryLogSchema = z.object({ deliveries: z.array(deliveryEntrySchema) });

export const emptySchema = z.object({});
