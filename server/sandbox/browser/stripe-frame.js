/**
 * The Payment Element's frame of the Stripe.js stand-in: on the provider's origin, it holds the card fields,
 * checks them as Stripe's element does, and sends the card to the provider's confirm endpoint itself.
 */
(() => {
  const key = new URLSearchParams(location.hash.slice(1)).get('key');
  const field = (id) => document.getElementById(id);
  const digits = (value) => value.replace(/\D/g, '');
  const errorBox = field('error');

  const luhn = (number) => {
    let sum = 0;
    for (let i = 0; i < number.length; i += 1) {
      let digit = Number(number[number.length - 1 - i]);
      if (i % 2 === 1) {
        digit *= 2;
        if (digit > 9) digit -= 9;
      }
      sum += digit;
    }
    return number.length >= 12 && sum % 10 === 0;
  };

  field('number').addEventListener('input', (event) => {
    event.target.value = digits(event.target.value)
      .slice(0, 19)
      .replace(/(\d{4})(?=\d)/g, '$1 ');
  });
  field('expiry').addEventListener('input', (event) => {
    const value = digits(event.target.value).slice(0, 4);
    event.target.value = value.length > 2 ? `${value.slice(0, 2)} / ${value.slice(2)}` : value;
  });
  field('cvc').addEventListener('input', (event) => {
    event.target.value = digits(event.target.value).slice(0, 4);
  });

  const read = () => {
    const number = digits(field('number').value);
    const [month, year] = field('expiry')
      .value.split('/')
      .map((part) => digits(part));
    const cvc = digits(field('cvc').value);
    return { number, month, year, cvc };
  };

  /** Stripe's own wording for an incomplete or invalid card. */
  const problem = ({ number, month, year, cvc }) => {
    if (number.length < 13) return ['number', 'Your card number is incomplete.'];
    if (!luhn(number)) return ['number', 'Your card number is invalid.'];
    if (!month || !year || year.length !== 2) return ['expiry', "Your card's expiration date is incomplete."];
    const now = new Date();
    const fullYear = 2000 + Number(year);
    if (Number(month) < 1 || Number(month) > 12) return ['expiry', "Your card's expiration date is incomplete."];
    if (fullYear < now.getFullYear()) return ['expiry', "Your card's expiration year is in the past."];
    if (fullYear === now.getFullYear() && Number(month) < now.getMonth() + 1) {
      return ['expiry', "Your card's expiration date is in the past."];
    }
    if (cvc.length < 3) return ['cvc', "Your card's security code is incomplete."];
    return null;
  };

  const validate = () => {
    for (const id of ['number', 'expiry', 'cvc']) field(id).removeAttribute('aria-invalid');
    const found = problem(read());
    errorBox.textContent = found ? found[1] : '';
    if (!found) return null;
    field(found[0]).setAttribute('aria-invalid', 'true');
    return { type: 'validation_error', code: `incomplete_${found[0]}`, message: found[1] };
  };

  for (const id of ['number', 'expiry', 'cvc']) {
    field(id).addEventListener('input', () => {
      const card = read();
      const empty = !card.number && !card.month && !card.cvc;
      parent.postMessage({ stripeStandIn: 'change', complete: problem(card) === null, empty }, '*');
    });
  }

  async function confirm(clientSecret) {
    const error = validate();
    if (error) return { error };
    const card = read();
    const body = new URLSearchParams({
      key,
      client_secret: clientSecret,
      'payment_method_data[type]': 'card',
      'payment_method_data[card][number]': card.number,
      'payment_method_data[card][exp_month]': card.month,
      'payment_method_data[card][exp_year]': card.year,
      'payment_method_data[card][cvc]': card.cvc,
    });
    const id = clientSecret.split('_secret_')[0];
    const response = await fetch(`/v1/payment_intents/${id}/confirm`, { method: 'POST', body });
    const answer = await response.json();
    if (answer.error) {
      errorBox.textContent = answer.error.message;
      return { error: answer.error };
    }
    return { paymentIntent: answer };
  }

  window.addEventListener('message', async (event) => {
    if (event.source !== parent || !event.data || !event.data.token) return;
    const { stripeStandIn, token, clientSecret } = event.data;
    let result;
    if (stripeStandIn === 'validate') result = { error: validate() };
    else if (stripeStandIn === 'confirm') result = await confirm(clientSecret);
    else return;
    parent.postMessage({ token, result }, event.origin);
  });

  parent.postMessage({ stripeStandIn: 'ready' }, '*');
  parent.postMessage({ stripeStandIn: 'resize', height: document.body.scrollHeight + 8 }, '*');
})();
