// Presenter of a registered app, in the shape of shapes.ts `appSchema`.
import type { z } from 'zod';
import type { appSchema } from '../shapes.js';
import type { AppDoc } from '../store/index.js';

export type AppJson = z.input<typeof appSchema>;

export function appView(app: AppDoc): AppJson {
  return { id: app._id, app_name: app.appName, redirect_url: app.redirectUrl };
}
