/**
 * The Braintree drop-in stand-in the Braintree fake serves (BRAINTREE_DROPIN_URL in tests and the demo), with the API
 * surface of braintree-web-drop-in: `braintree.dropin.create({authorization, container, threeDSecure})` resolving to
 * an instance with requestPaymentMethod({threeDSecure: {amount}}), isPaymentMethodRequestable, on, teardown. The card
 * fields are a frame on Braintree's origin, which tokenizes the card with the client token's fingerprint; a 3-D
 * Secure lookup follows, and a challenge opens over the page when the bank asks for one.
 */
(() => {
  const origin = new URL(document.currentScript.src).origin;

  class DropinError extends Error {
    constructor(message) {
      super(message);
      this.name = 'DropinError';
    }
  }

  function decode(authorization) {
    try {
      const token = JSON.parse(atob(authorization));
      if (!token.authorizationFingerprint || !token.clientApiUrl) throw new Error('incomplete');
      return token;
    } catch {
      throw new DropinError('There was an error creating Drop-in.');
    }
  }

  async function create(options = {}) {
    const token = decode(options.authorization || '');
    const host = typeof options.container === 'string' ? document.querySelector(options.container) : options.container;
    if (!host) throw new DropinError('options.container must reference a valid DOM node.');
    const listeners = {};
    const emit = (event, payload) => {
      for (const listener of listeners[event] || []) listener(payload);
    };
    const wrapper = document.createElement('div');
    wrapper.className = 'braintree-dropin';
    wrapper.innerHTML = '<div class="braintree-heading" style="font:600 15px system-ui;margin:4px 0 8px">Card</div>';
    const frame = document.createElement('iframe');
    frame.name = 'braintree-hosted-field-card';
    frame.title = 'Secure Credit Card Frame';
    frame.style.cssText = 'border:0;width:100%;height:170px;display:block';
    frame.src = `${origin}/web/dropin/card-frame.html`;
    wrapper.appendChild(frame);
    host.appendChild(wrapper);
    let requestable = false;
    await new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));

    const onMessage = (event) => {
      if (event.source !== frame.contentWindow || event.origin !== origin) return;
      if (event.data?.braintreeStandIn === 'requestable') {
        const now = Boolean(event.data.requestable);
        if (now !== requestable) {
          requestable = now;
          emit(now ? 'paymentMethodRequestable' : 'noPaymentMethodRequestable', { type: 'CreditCard' });
        }
      }
    };
    window.addEventListener('message', onMessage);

    const ask = (request) =>
      new Promise((resolve) => {
        const id = Math.random().toString(36).slice(2);
        const answer = (event) => {
          if (event.source !== frame.contentWindow || event.data?.id !== id) return;
          window.removeEventListener('message', answer);
          resolve(event.data.result);
        };
        window.addEventListener('message', answer);
        frame.contentWindow.postMessage({ ...request, id }, origin);
      });

    const api = async (path, body) => {
      const response = await fetch(`${token.clientApiUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...body, authorizationFingerprint: token.authorizationFingerprint }),
      });
      const answer = await response.json();
      if (!response.ok) throw new DropinError(answer.error?.message || 'Something went wrong.');
      return answer;
    };

    const challenge = (url) =>
      new Promise((resolve) => {
        const overlay = document.createElement('div');
        overlay.style.cssText =
          'position:fixed;inset:0;z-index:2147483647;background:rgba(0,0,0,.4);display:flex;align-items:center;justify-content:center';
        const challengeFrame = document.createElement('iframe');
        challengeFrame.name = 'Cardinal-CCA-IFrame';
        challengeFrame.title = '3-D Secure authentication';
        challengeFrame.src = url;
        challengeFrame.style.cssText = 'border:0;background:#fff;width:90%;max-width:400px;height:340px';
        overlay.appendChild(challengeFrame);
        document.body.appendChild(overlay);
        const done = (event) => {
          if (event.source !== challengeFrame.contentWindow || event.data?.braintreeStandIn !== 'challenge-done')
            return;
          window.removeEventListener('message', done);
          overlay.remove();
          resolve();
        };
        window.addEventListener('message', done);
      });

    return {
      on(event, listener) {
        listeners[event] = [...(listeners[event] || []), listener];
      },
      off(event, listener) {
        listeners[event] = (listeners[event] || []).filter((candidate) => candidate !== listener);
      },
      isPaymentMethodRequestable: () => requestable,
      clearSelectedPaymentMethod() {
        frame.contentWindow.postMessage({ braintreeStandIn: 'clear' }, origin);
      },
      async requestPaymentMethod(requestOptions = {}) {
        const tokenized = await ask({
          braintreeStandIn: 'tokenize',
          clientApiUrl: token.clientApiUrl,
          fingerprint: token.authorizationFingerprint,
        });
        if (tokenized.error) throw new DropinError(tokenized.error);
        let method = tokenized.paymentMethod;
        let info = null;
        if (options.threeDSecure && requestOptions.threeDSecure) {
          const lookup = await api(`/v1/payment_methods/${encodeURIComponent(method.nonce)}/three_d_secure/lookup`, {
            amount: requestOptions.threeDSecure.amount,
          });
          method = lookup.paymentMethod;
          if (lookup.lookup.acsUrl) {
            await challenge(lookup.lookup.acsUrl);
            method = (await api(`/v1/three_d_secure/${encodeURIComponent(method.nonce)}/authenticate`, {}))
              .paymentMethod;
          }
          info = method.threeDSecureInfo;
          if (!info.liabilityShifted) throw new DropinError('3D Secure authentication failed. Please try again.');
        }
        return {
          nonce: method.nonce,
          type: 'CreditCard',
          details: method.details,
          description: `ending in ${method.details.lastTwo}`,
          binData: {},
          liabilityShifted: info ? info.liabilityShifted : undefined,
          liabilityShiftPossible: info ? info.liabilityShiftPossible : undefined,
          threeDSecureInfo: info || undefined,
        };
      },
      async teardown() {
        window.removeEventListener('message', onMessage);
        wrapper.remove();
      },
    };
  }

  window.braintree = window.braintree || {};
  window.braintree.dropin = {
    VERSION: '1.48.0',
    create(options, callback) {
      const created = create(options);
      if (typeof callback === 'function') {
        created.then(
          (instance) => callback(null, instance),
          (error) => callback(error),
        );
        return undefined;
      }
      return created;
    },
  };
})();
