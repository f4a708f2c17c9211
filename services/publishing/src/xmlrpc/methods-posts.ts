// Post, category and media methods under both prefixes (metaWeblog.* and service.*), parameters in the
// order of the interface. Each reads and checks all its parameters, then logs in, then acts.
import { categoriesOfSite, categoryNames, tagNames } from '../domain/categories.js';
import { uploadMedia } from '../domain/media.js';
import type { PostChanges } from '../domain/post-rules.js';
import { createPost, deletePost, editPost, listPosts, MAX_LIST_COUNT, ownPost } from '../domain/posts.js';
import { resolveSite } from '../domain/sites.js';
import { authenticate, type CallContext, type MethodDef, type MethodTable } from './call.js';
import {
  asBytes,
  asCount,
  asId,
  asOptionalBoolean,
  asSiteRef,
  asString,
  asStruct,
  firstDate,
  optionalString,
  requiredString,
} from './params.js';
import { categoryStruct, postStruct } from './shapes.js';
import type { XmlRpcStruct, XmlRpcValue } from './values.js';

const DATE_MEMBERS = ['date_created_gmt', 'date_created', 'dateCreated'] as const;

/**
 * The content struct of newPost/editPost, with the Movable Type members desktop editors send
 * (`mt_text_more`, `mt_excerpt`, `wp_slug`, `mt_keywords`); unknown members are ignored.
 */
function postChanges(struct: XmlRpcStruct, publish: boolean | undefined): PostChanges {
  const changes: PostChanges = {};
  const title = optionalString(struct, 'title');
  if (title !== undefined) changes.title = title;
  const description = optionalString(struct, 'description');
  if (description !== undefined) changes.description = description;
  const more = optionalString(struct, 'mt_text_more');
  if (more !== undefined) changes.more = more;
  const summary = optionalString(struct, 'mt_excerpt');
  if (summary !== undefined) changes.summary = summary;
  const slug = optionalString(struct, 'wp_slug');
  if (slug !== undefined) changes.slug = slug;
  const categories = struct.get('categories');
  if (categories !== undefined && categories !== null) changes.categories = categoryNames(categories);
  const keywords = struct.get('mt_keywords');
  if (keywords !== undefined && keywords !== null) changes.tags = tagNames(keywords);
  const status = optionalString(struct, 'post_status')?.trim().toLowerCase();
  if (status) changes.status = status === 'draft' ? 'draft' : 'publish';
  const date = firstDate(struct, DATE_MEMBERS);
  if (date !== undefined) changes.date = date;
  if (publish !== undefined) changes.publish = publish;
  return changes;
}

const newPost: MethodDef = {
  params: [4, 5],
  async run(p: XmlRpcValue[], call: CallContext) {
    const siteRef = asSiteRef(p[0]);
    const changes = postChanges(asStruct(p[3], 'content'), asOptionalBoolean(p[4], 'publish'));
    const caller = await authenticate(p, 1, 2, call);
    const site = await resolveSite(call.ctx, caller, siteRef, call.headers);
    return createPost(call.ctx, caller, site, changes, call.headers);
  },
};

const editPostMethod: MethodDef = {
  params: [4, 5],
  async run(p, call) {
    const postId = asId(p[0], 'postid');
    const changes = postChanges(asStruct(p[3], 'content'), asOptionalBoolean(p[4], 'publish'));
    const caller = await authenticate(p, 1, 2, call);
    await editPost(call.ctx, caller, postId, changes, call.headers);
    return true;
  },
};

const deletePostMethod: MethodDef = {
  params: [3, 3],
  async run(p, call) {
    const postId = asId(p[0], 'postid');
    const caller = await authenticate(p, 1, 2, call);
    await deletePost(call.ctx, caller, postId, call.headers);
    return true;
  },
};

/**
 * metaWeblog.deletePost: post id, username, token — or, as WordPress takes it (the Blogger method's
 * alias), app key, post id, username, token and an optional publish flag. Told apart by their count.
 */
const metaWeblogDeletePost: MethodDef = {
  params: [3, 5],
  async run(p, call) {
    return p.length === 3 ? deletePostMethod.run(p, call) : bloggerDeletePost.run(p, call);
  },
};

/** blogger.deletePost: app key (ignored), post id, username, token, publish (ignored). */
export const bloggerDeletePost: MethodDef = {
  params: [4, 5],
  async run(p, call) {
    asString(p[0], 'appkey');
    const postId = asId(p[1], 'postid');
    const caller = await authenticate(p, 2, 3, call);
    await deletePost(call.ctx, caller, postId, call.headers);
    return true;
  },
};

const getPost: MethodDef = {
  params: [3, 3],
  async run(p, call) {
    const postId = asId(p[0], 'postid');
    const caller = await authenticate(p, 1, 2, call);
    const { post, site } = await ownPost(call.ctx, caller, postId);
    return postStruct(call.ctx, site, post);
  },
};

function listing(countAt: number, withOffset: boolean): MethodDef {
  return {
    params: [3, countAt + (withOffset ? 2 : 1)],
    async run(p, call) {
      const siteRef = asSiteRef(p[0]);
      const count = asCount(p[countAt], 'count', 25, MAX_LIST_COUNT);
      const offset = withOffset ? asCount(p[countAt + 1], 'offset', 0, Number.MAX_SAFE_INTEGER) : 0;
      const caller = await authenticate(p, 1, 2, call);
      const site = await resolveSite(call.ctx, caller, siteRef, call.headers);
      const posts = await listPosts(call.ctx, site, count, offset);
      return posts.map((post) => postStruct(call.ctx, site, post));
    },
  };
}

const getCategories: MethodDef = {
  params: [3, 3],
  async run(p, call) {
    const siteRef = asSiteRef(p[0]);
    const caller = await authenticate(p, 1, 2, call);
    const site = await resolveSite(call.ctx, caller, siteRef, call.headers);
    const categories = await categoriesOfSite(call.ctx, site._id);
    return categories.map((c) => categoryStruct(call.ctx, site, c));
  },
};

const newMediaObject: MethodDef = {
  params: [4, 4],
  async run(p, call) {
    const siteRef = asSiteRef(p[0]);
    const media = asStruct(p[3], 'media');
    const name = requiredString(media, 'name');
    const type = requiredString(media, 'type');
    const bits = asBytes(media.get('bits') ?? undefined, 'bits');
    const caller = await authenticate(p, 1, 2, call);
    const site = await resolveSite(call.ctx, caller, siteRef, call.headers);
    return uploadMedia(call.ctx, caller, site, { name, type, bits });
  },
};

export const postMethods: MethodTable = {
  'metaWeblog.newPost': newPost,
  'service.newPost': newPost,
  'metaWeblog.editPost': editPostMethod,
  'service.editPost': editPostMethod,
  'metaWeblog.deletePost': metaWeblogDeletePost,
  'service.deletePost': deletePostMethod,
  'blogger.deletePost': bloggerDeletePost,
  'metaWeblog.getPost': getPost,
  'service.getPost': getPost,
  'metaWeblog.getRecentPosts': listing(3, false),
  'service.getPosts': listing(3, true),
  'metaWeblog.getCategories': getCategories,
  'service.getCategories': getCategories,
  'metaWeblog.newMediaObject': newMediaObject,
  'service.newMediaObject': newMediaObject,
};
