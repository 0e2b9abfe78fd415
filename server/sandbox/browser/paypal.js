/**
 * The PayPal JS SDK stand-in the PayPal fake serves (PAYPAL_SDK_URL in tests and the demo), loaded by
 * @paypal/paypal-js's loadScript as the real SDK is: `paypal.Buttons({createOrder, onApprove, onCancel, onError})
 * .render(container)`. The button is a frame on PayPal's origin; a click opens PayPal's approval pop-up for the order
 * createOrder answers; the buyer's approval comes back to onApprove with `actions.restart()` for a retry.
 */
(() => {
  const tag = document.currentScript;
  const src = new URL(tag.src);
  const origin = src.origin;
  if (!src.searchParams.get('client-id')) throw new Error('SDK Validation error: "client-id" is required');
  const namespace = tag.getAttribute('data-namespace') || 'paypal';

  function Buttons(options = {}) {
    let frame = null;
    const toFrame = (message) => frame?.contentWindow?.postMessage(message, origin);
    const fail = (error) => (options.onError ? options.onError(error) : console.error(error));
    let current = null;
    const actions = {
      restart() {
        toFrame({ paypalStandIn: 'checkout', orderID: current });
        return Promise.resolve();
      },
    };
    const onMessage = async (event) => {
      if (!frame || event.source !== frame.contentWindow || event.origin !== origin) return;
      const data = event.data || {};
      if (data.paypalStandIn === 'click') {
        try {
          current = await options.createOrder({ paymentSource: 'paypal' }, {});
          if (typeof current !== 'string' || current === '') throw new Error('Expected an order id to be passed');
          toFrame({ paypalStandIn: 'checkout', orderID: current });
        } catch (error) {
          toFrame({ paypalStandIn: 'abort' });
          fail(error);
        }
      } else if (data.paypalStandIn === 'approved') {
        try {
          await options.onApprove?.({ orderID: data.orderID, payerID: data.payerID, paymentSource: 'paypal' }, actions);
        } catch (error) {
          fail(error);
        }
      } else if (data.paypalStandIn === 'cancel') {
        options.onCancel?.({ orderID: data.orderID });
      }
    };
    return {
      isEligible: () => true,
      render(container) {
        const host = typeof container === 'string' ? document.querySelector(container) : container;
        if (!host) return Promise.reject(new Error('Document is ready and element was not found'));
        frame = document.createElement('iframe');
        frame.name = `__zoid__paypal_buttons__${Math.random().toString(36).slice(2)}`;
        frame.title = 'PayPal';
        frame.style.cssText = 'border:0;width:100%;height:48px;display:block';
        frame.src = `${origin}/smart/buttons`;
        host.appendChild(frame);
        window.addEventListener('message', onMessage);
        return new Promise((resolve) => frame.addEventListener('load', () => resolve(), { once: true }));
      },
      close() {
        window.removeEventListener('message', onMessage);
        frame?.remove();
        frame = null;
        return Promise.resolve();
      },
    };
  }

  window[namespace] = {
    version: '5.0.470',
    Buttons,
    FUNDING: { PAYPAL: 'paypal', CARD: 'card', VENMO: 'venmo', PAYLATER: 'paylater' },
  };
})();
