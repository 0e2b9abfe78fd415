export default definePageConfig({ navigationBarTitleText: 'Shipping method' });
