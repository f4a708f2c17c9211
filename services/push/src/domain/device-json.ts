// Presenter: a stored device → the Push device record of the interface.
import type { z } from 'zod';
import { formatOffsetTime } from '@murmur/core';
import type { deviceSchema } from '../shapes.js';
import type { DeviceDoc } from '../store/index.js';

export function deviceJson(device: DeviceDoc): z.input<typeof deviceSchema> {
  return {
    token: device.token,
    app_name: device.appName,
    push_env: device.pushEnv,
    created_at: formatOffsetTime(device.createdAt),
  };
}
