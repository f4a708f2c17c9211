// The Movable Type methods desktop editors (MarsEdit, Open Live Writer) call beside MetaWeblog, in the
// shapes of the Movable Type API (docs/api/publishing.md, "Movable Type methods"): categories by id,
// the titles of recent posts, publishing a draft, and the text filters (none: a body's format is
// recognised from it, docs/api/publishing.md "Post bodies").
import { categoriesNamed, categoriesOfSite } from '../domain/categories.js';
import { listPosts, MAX_LIST_COUNT, ownPost, publishPost, setPostCategories } from '../domain/posts.js';
import { resolveSite } from '../domain/sites.js';
import { authenticate, type MethodTable } from './call.js';
import { asCount, asId, asOptionalBoolean, asSiteRef, asStruct, badParam } from './params.js';
import { postTitleStruct } from './shapes.js';
import type { XmlRpcValue } from './values.js';

/** The categories parameter of mt.setPostCategories: structs of `categoryId` and optional `isPrimary`. */
function categoryRefs(value: XmlRpcValue | undefined): { id: number; primary: boolean }[] {
  if (!Array.isArray(value)) throw badParam('categories: must be an array of structs');
  return value.map((item) => {
    const struct = asStruct(item, 'categories');
    return {
      id: asId(struct.get('categoryId') ?? undefined, 'categoryId'),
      primary: asOptionalBoolean(struct.get('isPrimary'), 'isPrimary') ?? false,
    };
  });
}

export const mtMethods: MethodTable = {
  /** site id, username, token → [{categoryId, categoryName}] of every category of the site. */
  'mt.getCategoryList': {
    params: [3, 3],
    async run(p, call) {
      const siteRef = asSiteRef(p[0]);
      const caller = await authenticate(p, 1, 2, call);
      const site = await resolveSite(call.ctx, caller, siteRef, call.headers);
      const categories = await categoriesOfSite(call.ctx, site._id);
      return categories.map((c) => ({ categoryId: String(c._id), categoryName: c.name }));
    },
  },

  /** post id, username, token → [{categoryName, categoryId, isPrimary}], the first one primary. */
  'mt.getPostCategories': {
    params: [3, 3],
    async run(p, call) {
      const postId = asId(p[0], 'postid');
      const caller = await authenticate(p, 1, 2, call);
      const { post } = await ownPost(call.ctx, caller, postId);
      const categories = await categoriesNamed(call.ctx, post.siteId, post.categories);
      return categories.map((c, i) => ({
        categoryName: c.name,
        categoryId: String(c._id),
        isPrimary: i === 0,
      }));
    },
  },

  /** post id, username, token, [{categoryId, isPrimary?}] → true. */
  'mt.setPostCategories': {
    params: [4, 4],
    async run(p, call) {
      const postId = asId(p[0], 'postid');
      const refs = categoryRefs(p[3]);
      const caller = await authenticate(p, 1, 2, call);
      await setPostCategories(call.ctx, caller, postId, refs, call.headers);
      return true;
    },
  },

  /** No login; [{key, label}]: none, a body's format is recognised from the body itself. */
  'mt.supportedTextFilters': {
    params: [0, 0],
    run: async () => [],
  },

  /** post id, username, token → true; a draft is published (or scheduled by its date). */
  'mt.publishPost': {
    params: [3, 3],
    async run(p, call) {
      const postId = asId(p[0], 'postid');
      const caller = await authenticate(p, 1, 2, call);
      await publishPost(call.ctx, caller, postId, call.headers);
      return true;
    },
  },

  /** site id, username, token, count (25, ≤ 100) → [{dateCreated, userid, postid, title, …}], newest first. */
  'mt.getRecentPostTitles': {
    params: [3, 4],
    async run(p, call) {
      const siteRef = asSiteRef(p[0]);
      const count = asCount(p[3], 'numberOfPosts', 25, MAX_LIST_COUNT);
      const caller = await authenticate(p, 1, 2, call);
      const site = await resolveSite(call.ctx, caller, siteRef, call.headers);
      const posts = await listPosts(call.ctx, site, count, 0);
      return posts.map(postTitleStruct);
    },
  },
};
