// Page methods (service.*): list, read, create, edit, delete.
import type { PageChanges } from '../domain/pages.js';
import { createPage, deletePage, editPage, listPages, ownPage } from '../domain/pages.js';
import { MAX_LIST_COUNT } from '../domain/posts.js';
import { resolveSite } from '../domain/sites.js';
import { authenticate, type MethodDef, type MethodTable } from './call.js';
import {
  asCount,
  asId,
  asOptionalBoolean,
  asSiteRef,
  asStruct,
  firstDate,
  optionalString,
} from './params.js';
import { pageStruct } from './shapes.js';
import type { XmlRpcStruct } from './values.js';

function pageChanges(struct: XmlRpcStruct): PageChanges {
  const changes: PageChanges = {};
  const title = optionalString(struct, 'title');
  if (title !== undefined) changes.title = title;
  const description = optionalString(struct, 'description');
  if (description !== undefined) changes.description = description;
  const isNavigation = asOptionalBoolean(struct.get('is_navigation'), 'is_navigation');
  if (isNavigation !== undefined) changes.isNavigation = isNavigation;
  const date = firstDate(struct, ['date_created_gmt', 'date_created', 'dateCreated']);
  if (date !== undefined) changes.date = date;
  return changes;
}

export const pageMethods: MethodTable = {
  'service.getPages': {
    params: [3, 5],
    async run(p, call) {
      const siteRef = asSiteRef(p[0]);
      const count = asCount(p[3], 'count', 25, MAX_LIST_COUNT);
      const offset = asCount(p[4], 'offset', 0, Number.MAX_SAFE_INTEGER);
      const caller = await authenticate(p, 1, 2, call);
      const site = await resolveSite(call.ctx, caller, siteRef, call.headers);
      const pages = await listPages(call.ctx, site, count, offset);
      return pages.map((page) => pageStruct(call.ctx, site, page));
    },
  } satisfies MethodDef,

  'service.getPage': {
    params: [3, 3],
    async run(p, call) {
      const pageId = asId(p[0], 'page_id');
      const caller = await authenticate(p, 1, 2, call);
      const { page, site } = await ownPage(call.ctx, caller, pageId);
      return pageStruct(call.ctx, site, page);
    },
  },

  'service.newPage': {
    params: [4, 5],
    async run(p, call) {
      const siteRef = asSiteRef(p[0]);
      const changes = pageChanges(asStruct(p[3], 'content'));
      const caller = await authenticate(p, 1, 2, call);
      const site = await resolveSite(call.ctx, caller, siteRef, call.headers);
      return createPage(call.ctx, caller, site, changes);
    },
  },

  'service.editPage': {
    params: [4, 5],
    async run(p, call) {
      const pageId = asId(p[0], 'page_id');
      const changes = pageChanges(asStruct(p[3], 'content'));
      const caller = await authenticate(p, 1, 2, call);
      await editPage(call.ctx, caller, pageId, changes);
      return true;
    },
  },

  'service.deletePage': {
    params: [3, 3],
    async run(p, call) {
      const pageId = asId(p[0], 'page_id');
      const caller = await authenticate(p, 1, 2, call);
      await deletePage(call.ctx, caller, pageId);
      return true;
    },
  },
};
