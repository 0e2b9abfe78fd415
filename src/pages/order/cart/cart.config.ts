export default definePageConfig({ navigationBarTitleText: 'Cart' });
