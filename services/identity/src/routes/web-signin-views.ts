// The confirmation page of an emailed web sign-in link: one button that signs this browser in.
import { WEB_SIGNIN_PATH } from '../domain/web-signin.js';
import { html, page, type SafeHtml } from './html.js';

export function confirmSigninScreen(view: {
  token: string;
  returnTo: string | undefined;
  csrf: string;
}): SafeHtml {
  return page(
    'Sign in to Murmur',
    html`<h1>Sign in to Murmur</h1>
      <p class="lead">Continue to sign in to Murmur in this browser.</p>
      <form method="post" action="${WEB_SIGNIN_PATH}">
        <input type="hidden" name="token" value="${view.token}" />
        <input type="hidden" name="csrf" value="${view.csrf}" />
        ${view.returnTo === undefined ? '' : html`<input type="hidden" name="return_to" value="${view.returnTo}" />`}
        <div class="actions"><button type="submit" class="primary">Sign in</button></div>
      </form>
      <p class="hint">
        If you did not ask to sign in, close this page: nothing happens until you press the button.
      </p>`,
  );
}
