export { parsePage, type PageLimits, type PageRequest } from './page.js';
export { lastPage, linkHeader, type PageCount, type QueryInput } from './links.js';
