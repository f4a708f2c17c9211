// MongoDB users for Murmur: one per service, readWrite on its own database only.
// GENERATED from deploy/src/access.ts: edit that module, then rewrite this file with
//   UPDATE_RENDERED=1 node --experimental-vm-modules node_modules/jest/bin/jest.js deploy/test/rendered
// Run as root: mongosh mongodb://mongodb:27017/admin -u root -p "$PASSWORD" --file mongodb-users.js
/* global db, print, quit */
const services = [
  ['identity', 'MONGO_IDENTITY_PASSWORD', 'murmur_identity'],
  ['reader', 'MONGO_READER_PASSWORD', 'murmur_reader'],
  ['feeds', 'MONGO_FEEDS_PASSWORD', 'murmur_feeds'],
  ['microsub', 'MONGO_MICROSUB_PASSWORD', 'murmur_microsub'],
  ['webmention', 'MONGO_WEBMENTION_PASSWORD', 'murmur_webmention'],
  ['archive', 'MONGO_ARCHIVE_PASSWORD', 'murmur_archive'],
  ['publishing', 'MONGO_PUBLISHING_PASSWORD', 'murmur_publishing'],
  ['push', 'MONGO_PUSH_PASSWORD', 'murmur_push'],
  ['federation', 'MONGO_FEDERATION_PASSWORD', 'murmur_federation'],
  ['websub', 'MONGO_WEBSUB_PASSWORD', 'murmur_websub'],
];
const admin = db.getSiblingDB('admin');
const missing = services.filter(([, variable]) => !process.env[variable]).map(([, variable]) => variable);
if (missing.length > 0) {
  print(`missing passwords: ${missing.join(', ')}`);
  quit(1);
}
for (const [user, variable, database] of services) {
  const pwd = process.env[variable];
  const roles = [{ role: 'readWrite', db: database }];
  if (admin.getUser(user)) admin.updateUser(user, { pwd, roles });
  else admin.createUser({ user, pwd, roles });
  print(`${user}: readWrite on ${database}`);
}
