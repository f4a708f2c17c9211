// The domain's refusals as platform errors. The XML-RPC layer turns each status into the fault code of
// docs/api/publishing.md (400 → −32602, 401, 403, 404, 413); web routes send them as HTTP statuses.
import { AppError, badRequest, notFound } from '@murmur/core';

export const badParam = (message: string) => badRequest(message);

/** An unknown id, or one that belongs to another user: existence is never revealed. */
export const postNotFound = () => notFound('No such post.');
export const pageNotFound = () => notFound('No such page.');
export const siteNotFound = () => notFound('No such site.');

/** A site of another user (docs/api/publishing.md: 401, unlike posts). */
export const notYourSite = () => new AppError(401, 'not_allowed', 'That site belongs to another user.');
export const mediaTypeNotAllowed = () => new AppError(401, 'not_allowed', 'That media type is not allowed.');
export const mediaTooLarge = (maxBytes: number) =>
  new AppError(413, 'payload_too_large', `The file is larger than ${maxBytes} bytes.`);
export const badLogin = () => new AppError(403, 'bad_login', 'Incorrect username or app token.');
