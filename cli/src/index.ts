export { startSingleProcess, launcherConfigSchema, type SingleProcess } from './single-process.js';
export { services } from './services.js';
export { adminClient, AdminApiError } from './admin-client.js';
export { runAdminCommand, UsageError } from './commands.js';
export { ensureAdminToken, readAdminToken, adminTokenFile } from './admin-token.js';
export { listeningLine, type BoundAddress } from './banner.js';
