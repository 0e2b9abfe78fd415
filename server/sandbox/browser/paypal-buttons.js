/**
 * The PayPal button's frame (PayPal's origin): a click opens the approval pop-up at once (inside the click, so no
 * pop-up blocker stops it) and asks the page for the order; the pop-up's answer goes back to the page.
 */
(() => {
  let popup = null;
  let answered = false;
  let watch = null;
  const open = () => {
    if (!popup || popup.closed) popup = window.open('', 'paypal_checkout', 'width=450,height=640');
    return popup;
  };
  const watchClose = (orderID) => {
    clearInterval(watch);
    answered = false;
    watch = setInterval(() => {
      if (popup?.closed) {
        clearInterval(watch);
        if (!answered) parent.postMessage({ paypalStandIn: 'cancel', orderID }, '*');
      }
    }, 250);
  };
  document.querySelector('button').addEventListener('click', () => {
    open();
    parent.postMessage({ paypalStandIn: 'click' }, '*');
  });
  window.addEventListener('message', (event) => {
    const data = event.data || {};
    if (event.source === parent) {
      if (data.paypalStandIn === 'checkout') {
        open().location.href = `/checkoutnow?token=${encodeURIComponent(data.orderID)}`;
        watchClose(data.orderID);
      } else if (data.paypalStandIn === 'abort') {
        popup?.close();
      }
      return;
    }
    if (event.source === popup && event.origin === location.origin) {
      answered = true;
      parent.postMessage(data, '*');
    }
  });
})();
