// The screens of the IndieAuth flow as a person sees them: who asks (name, logo, full client_id),
// for what (scopes, reader access), where the browser goes next, and the forms to answer.
import type { AuthRequestDoc, UserDoc } from '../store/index.js';
import type { ClientInfo } from '../domain/client-info.js';
import { html, page, type SafeHtml } from './html.js';

const SCOPE_TEXT: Record<string, string> = {
  profile: 'See your name, username and avatar',
  read: 'Read your subscriptions, entries and timelines',
  follow: 'Follow and unfollow sites for you',
  create: 'Publish posts for you (this also lets it read and follow)',
  update: 'Edit your existing posts',
  channels: 'Create, rename, reorder and delete your reader channels',
  delete: 'Delete and restore your posts',
  media: 'Upload photos and other files for your posts',
  draft: 'Save posts for you as drafts only (not published)',
};

export interface ScreenClient {
  request: AuthRequestDoc;
  requestId: string;
  client: ClientInfo;
}

function appName({ request, client }: ScreenClient): string {
  return client.name ?? new URL(request.clientId).host;
}

function appHeader(screen: ScreenClient): SafeHtml {
  const name = appName(screen);
  const logo = screen.client.logo
    ? html`<img class="logo" src="${screen.client.logo}" alt="" width="64" height="64" />`
    : html`<div class="logo placeholder" aria-hidden="true">${name.charAt(0).toUpperCase()}</div>`;
  return html`<header class="app">
    ${logo}
    <div>
      <h1>${name}</h1>
      <p class="client-id">${screen.request.clientId}</p>
    </div>
  </header>`;
}

/** Where the browser goes after the decision: the host, and the whole URI when it is not the client's. */
function redirectNotice(request: AuthRequestDoc): SafeHtml {
  const target = new URL(request.redirectUri);
  const web = target.protocol === 'https:' || target.protocol === 'http:';
  const shown = web ? target.host : `${target.protocol}//${target.host}`;
  const differs = !web || target.host !== new URL(request.clientId).host;
  return html`<p class="redirect">
    After you decide, you will be sent to <strong>${shown}</strong>.${
      differs ? html`<span class="uri">${request.redirectUri}</span>` : ''
    }
  </p>`;
}

export function consentScreen(
  screen: ScreenClient,
  view: { user: UserDoc; me: string; csrf: string; signoutCsrf: string },
): SafeHtml {
  const { request } = screen;
  const name = appName(screen);
  const scopes = request.scopes.map(
    (scope) =>
      html`<label class="scope"
        ><input type="checkbox" name="scope" value="${scope}" checked /><span
          ><strong>${scope}</strong><small>${SCOPE_TEXT[scope] ?? ''}</small></span
        ></label
      >`,
  );
  const asks =
    scopes.length > 0
      ? html`<fieldset>
          <legend>It asks for permission to</legend>
          ${scopes}
        </fieldset>`
      : request.inkwell
        ? ''
        : html`<p class="lead">It only asks to confirm who you are: it gets no access to your account.</p>`;
  const reader = request.inkwell
    ? html`<p class="notice">
        <strong>Reader access.</strong> This app asks to use your Murmur reader: it will be able to read your
        subscriptions and entries.
      </p>`
    : '';
  return page(
    `Sign in to ${name}`,
    html`${appHeader(screen)}
      <p class="lead">
        <strong>${name}</strong> wants to sign you in as <strong>@${view.user.username}</strong
        ><span class="me">${view.me}</span>
      </p>
      <form method="post" action="/indieauth/approve">
        <input type="hidden" name="request" value="${screen.requestId}" />
        <input type="hidden" name="csrf" value="${view.csrf}" />
        <input type="hidden" name="scope" value="" />
        ${asks}${reader}${redirectNotice(request)}
        <div class="actions">
          <button type="submit" name="approve" value="1" class="primary">Approve</button
          ><button type="submit" name="deny" value="1" class="secondary">Deny</button>
        </div>
      </form>
      <form method="post" action="/account/signout" class="signout">
        <input type="hidden" name="csrf" value="${view.signoutCsrf}" />
        <input type="hidden" name="return_to" value="${request.screenPath}" />
        <button type="submit" class="link">Not @${view.user.username}? Sign out</button>
      </form>`,
  );
}

export function signinScreen(screen: ScreenClient, view: { email?: string; error?: string } = {}): SafeHtml {
  const name = appName(screen);
  return page(
    `Sign in to ${name}`,
    html`${appHeader(screen)}
      <p class="lead">Sign in with your Murmur account to continue to <strong>${name}</strong>.</p>
      ${view.error ? html`<p class="error">${view.error}</p>` : ''}
      <form method="post" action="/indieauth/signin">
        <input type="hidden" name="request" value="${screen.requestId}" />
        <label class="field" for="email">Email address</label>
        <input
          id="email"
          type="email"
          name="email"
          required
          autocomplete="email"
          value="${view.email ?? ''}"
        />
        <div class="actions"><button type="submit" class="primary">Email me a sign-in link</button></div>
      </form>
      <p class="hint">
        We will email you a link. Open it in this browser and you will come back to this screen.
      </p>`,
  );
}

export function checkEmailScreen(screen: ScreenClient, email: string, ttlMinutes: number): SafeHtml {
  return page(
    'Check your email',
    html`${appHeader(screen)}
      <h2>Check your email</h2>
      <p>If <strong>${email}</strong> belongs to a Murmur account, a sign-in link is on its way.</p>
      <p>
        Open it in this browser to continue to <strong>${appName(screen)}</strong>. It works once and expires
        in ${ttlMinutes} minutes.
      </p>`,
  );
}

export function messageScreen(title: string, paragraphs: string[]): SafeHtml {
  return page(
    title,
    html`<h1>${title}</h1>
      ${paragraphs.map((p) => html`<p>${p}</p>`)}`,
  );
}
