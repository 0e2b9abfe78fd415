/** The payment page of an order (query `order_id`); the shop's route list has none, so it sits under /pages/order. */
export const PAYMENT_PAGE = '/pages/order/payment/payment';
