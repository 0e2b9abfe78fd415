/**
 * The Stripe.js stand-in the Stripe fake serves (STRIPE_JS_URL in tests and the demo): the same API surface the shop
 * uses from Stripe.js (Stripe(pk), elements({clientSecret}), create('payment').mount(), elements.submit(),
 * confirmPayment({elements, redirect: 'if_required'}), retrievePaymentIntent). As with Stripe's, the card fields live
 * in a frame on the provider's origin and the card goes from there to the provider: the shop's page never sees it.
 * A 3-D Secure challenge opens over the page in another frame of the provider's.
 */
(() => {
  const origin = new URL(document.currentScript.src).origin;
  let frames = 0;

  const intentId = (clientSecret) => String(clientSecret).split('_secret_')[0];

  function Stripe(publishableKey) {
    if (typeof publishableKey !== 'string' || !/^pk_(test|live)_/.test(publishableKey)) {
      throw new Error(`Invalid API Key provided: ${publishableKey}`);
    }

    async function retrieve(clientSecret) {
      const query = new URLSearchParams({ key: publishableKey, client_secret: clientSecret });
      const response = await fetch(`${origin}/v1/payment_intents/${intentId(clientSecret)}?${query}`);
      const body = await response.json();
      return body.error ? { error: body.error } : { paymentIntent: body };
    }

    function paymentElement(clientSecret) {
      const listeners = {};
      let frame = null;
      let ready = false;
      const emit = (event, payload) => {
        for (const listener of listeners[event] || []) listener(payload);
      };
      const onMessage = (event) => {
        if (!frame || event.source !== frame.contentWindow || event.origin !== origin) return;
        const data = event.data || {};
        if (data.stripeStandIn === 'ready') {
          ready = true;
          emit('ready', { elementType: 'payment' });
        } else if (data.stripeStandIn === 'change') {
          emit('change', {
            elementType: 'payment',
            complete: data.complete,
            empty: data.empty,
            value: { type: 'card' },
          });
        } else if (data.stripeStandIn === 'resize') {
          frame.style.height = `${data.height}px`;
        }
      };
      window.addEventListener('message', onMessage);

      /** Asks the frame (which holds the card) to do something; its answer comes back by postMessage. */
      const ask = (request) =>
        new Promise((resolve) => {
          const token = Math.random().toString(36).slice(2);
          const answer = (event) => {
            if (event.source !== frame.contentWindow || event.origin !== origin) return;
            if (!event.data || event.data.token !== token) return;
            window.removeEventListener('message', answer);
            resolve(event.data.result);
          };
          window.addEventListener('message', answer);
          frame.contentWindow.postMessage({ ...request, token }, origin);
        });

      return {
        on(event, listener) {
          listeners[event] = [...(listeners[event] || []), listener];
          if (event === 'ready' && ready) listener({ elementType: 'payment' });
          return this;
        },
        off(event, listener) {
          listeners[event] = (listeners[event] || []).filter((candidate) => candidate !== listener);
          return this;
        },
        mount(target) {
          const host = typeof target === 'string' ? document.querySelector(target) : target;
          if (!host) throw new Error('IntegrationError: the Payment Element was mounted on nothing');
          frames += 1;
          frame = document.createElement('iframe');
          frame.name = `__privateStripeFrame${frames}`;
          frame.title = 'Secure payment input frame';
          frame.setAttribute('frameborder', '0');
          frame.setAttribute('allow', 'payment *');
          frame.style.cssText = 'border:0;width:100%;height:190px;display:block';
          frame.src = `${origin}/elements-inner-payment.html#key=${encodeURIComponent(publishableKey)}`;
          host.appendChild(frame);
        },
        unmount() {
          frame?.remove();
          frame = null;
          ready = false;
        },
        destroy() {
          this.unmount();
          window.removeEventListener('message', onMessage);
        },
        _validate: () => ask({ stripeStandIn: 'validate' }),
        _confirm: () => ask({ stripeStandIn: 'confirm', clientSecret, key: publishableKey }),
      };
    }

    /** A 3-D Secure challenge over the page, in the provider's frame; resolves once the shopper answered it. */
    function challenge(url) {
      return new Promise((resolve) => {
        const overlay = document.createElement('div');
        overlay.style.cssText =
          'position:fixed;inset:0;z-index:2147483647;background:rgba(0,0,0,.4);display:flex;align-items:center;justify-content:center';
        const frame = document.createElement('iframe');
        frame.name = '__privateStripeFrame3ds';
        frame.title = '3D Secure authentication';
        frame.src = url;
        frame.style.cssText = 'border:0;background:#fff;width:90%;max-width:400px;height:360px;border-radius:8px';
        overlay.appendChild(frame);
        document.body.appendChild(overlay);
        const done = (event) => {
          if (event.source !== frame.contentWindow || event.origin !== origin) return;
          if (!event.data || event.data.stripeStandIn !== 'challenge-done') return;
          window.removeEventListener('message', done);
          overlay.remove();
          resolve();
        };
        window.addEventListener('message', done);
      });
    }

    return {
      _registerWrapper() {},
      elements(options = {}) {
        if (!options.clientSecret)
          throw new Error('IntegrationError: elements() needs the clientSecret of a PaymentIntent');
        let element = null;
        return {
          _clientSecret: options.clientSecret,
          create(type) {
            if (type !== 'payment')
              throw new Error(`IntegrationError: this stand-in has only the Payment Element, not ${type}`);
            element = paymentElement(options.clientSecret);
            return element;
          },
          getElement(type) {
            return type === 'payment' ? element : null;
          },
          async submit() {
            if (!element) return { error: { type: 'validation_error', message: 'No Payment Element is mounted.' } };
            const result = await element._validate();
            return result.error ? { error: result.error } : {};
          },
        };
      },
      async confirmPayment({ elements, confirmParams = {}, redirect = 'always' } = {}) {
        const element = elements?.getElement('payment');
        if (!element)
          throw new Error('IntegrationError: confirmPayment needs the elements the Payment Element was created from');
        if (redirect !== 'if_required' && !confirmParams.return_url) {
          throw new Error('IntegrationError: confirmPayment needs confirmParams.return_url');
        }
        const clientSecret = elements._clientSecret;
        const confirmed = await element._confirm();
        if (confirmed.error) return { error: confirmed.error };
        let intent = confirmed.paymentIntent;
        if (intent.status === 'requires_action' && intent.next_action?.use_stripe_sdk) {
          await challenge(intent.next_action.use_stripe_sdk.stripe_js);
          const after = await retrieve(clientSecret);
          if (after.error) return after;
          intent = after.paymentIntent;
          if (intent.status === 'requires_payment_method') {
            return { error: { ...intent.last_payment_error, payment_intent: intent } };
          }
        }
        if (redirect === 'if_required') return { paymentIntent: intent };
        const target = new URL(confirmParams.return_url);
        target.searchParams.set('payment_intent', intent.id);
        target.searchParams.set('payment_intent_client_secret', clientSecret);
        target.searchParams.set('redirect_status', intent.status);
        window.location.assign(target.toString());
        return new Promise(() => {});
      },
      retrievePaymentIntent: retrieve,
    };
  }
  Stripe.version = 'endive';
  window.Stripe = Stripe;
})();
