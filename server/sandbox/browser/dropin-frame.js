/** The drop-in's card frame (Braintree's origin): it holds the card and tokenizes it with the client API. */
(() => {
  const field = (id) => document.getElementById(id);
  const digits = (value) => value.replace(/\D/g, '');
  const errorBox = field('error');
  field('credit-card-number').addEventListener('input', (event) => {
    event.target.value = digits(event.target.value)
      .slice(0, 19)
      .replace(/(\d{4})(?=\d)/g, '$1 ');
  });
  field('expiration').addEventListener('input', (event) => {
    const value = digits(event.target.value).slice(0, 4);
    event.target.value = value.length > 2 ? `${value.slice(0, 2)}/${value.slice(2)}` : value;
  });
  field('cvv').addEventListener('input', (event) => {
    event.target.value = digits(event.target.value).slice(0, 4);
  });
  const read = () => ({
    number: digits(field('credit-card-number').value),
    expirationDate: field('expiration').value,
    cvv: digits(field('cvv').value),
  });
  const valid = (card) =>
    card.number.length >= 12 && /^\d{2}\/\d{2}$/.test(card.expirationDate) && card.cvv.length >= 3;
  for (const id of ['credit-card-number', 'expiration', 'cvv']) {
    field(id).addEventListener('input', () => {
      errorBox.textContent = '';
      parent.postMessage({ braintreeStandIn: 'requestable', requestable: valid(read()) }, '*');
    });
  }

  window.addEventListener('message', async (event) => {
    if (event.source !== parent || !event.data) return;
    const { braintreeStandIn, id, clientApiUrl, fingerprint } = event.data;
    if (braintreeStandIn === 'clear') {
      for (const name of ['credit-card-number', 'expiration', 'cvv']) field(name).value = '';
      return;
    }
    if (braintreeStandIn !== 'tokenize') return;
    const card = read();
    let result;
    if (!valid(card)) {
      result = { error: 'Please check your information and try again.' };
    } else {
      const response = await fetch(`${clientApiUrl}/v1/payment_methods/credit_cards`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ authorizationFingerprint: fingerprint, creditCard: card }),
      });
      const answer = await response.json();
      result = response.ok ? { paymentMethod: answer.creditCards[0] } : { error: answer.error.message };
    }
    if (result.error) errorBox.textContent = result.error;
    parent.postMessage({ id, result }, event.origin);
  });
})();
