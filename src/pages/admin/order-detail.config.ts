export default definePageConfig({ navigationBarTitleText: 'Order' });
