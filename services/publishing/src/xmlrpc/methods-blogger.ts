// What setup wizards call first: the user's blogs and profile (Blogger API, and the metaWeblog alias).
import { identity } from '@murmur/contracts';
import { siteUrl } from '../domain/site-json.js';
import { sitesOf } from '../domain/sites.js';
import { authenticate, type MethodDef, type MethodTable } from './call.js';
import { asString } from './params.js';
import { blogStruct } from './shapes.js';

/** app key (any string, ignored), username, token. */
const getUsersBlogs: MethodDef = {
  params: [3, 3],
  async run(p, call) {
    asString(p[0], 'appkey');
    const caller = await authenticate(p, 1, 2, call);
    const sites = await sitesOf(call.ctx, caller, call.headers);
    return sites.map((site) => blogStruct(call.ctx, site));
  },
};

export const bloggerMethods: MethodTable = {
  'blogger.getUsersBlogs': getUsersBlogs,
  'metaWeblog.getUsersBlogs': getUsersBlogs,

  'blogger.getUserInfo': {
    params: [3, 3],
    async run(p, call) {
      asString(p[0], 'appkey');
      const caller = await authenticate(p, 1, 2, call);
      const [main] = await sitesOf(call.ctx, caller, call.headers);
      const { user } = await call.ctx.bus.request(
        identity.usersGet,
        { id: caller.userId },
        { headers: call.headers },
      );
      const fullName = (user?.fullName || user?.name || '').trim();
      const space = fullName.indexOf(' ');
      return {
        userid: String(caller.userId),
        nickname: caller.username,
        firstname: space < 0 ? fullName : fullName.slice(0, space),
        lastname: space < 0 ? '' : fullName.slice(space + 1),
        email: user?.email ?? '',
        url: siteUrl(call.ctx, main!),
      };
    },
  },
};
