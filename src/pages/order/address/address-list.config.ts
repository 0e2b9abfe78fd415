export default definePageConfig({ navigationBarTitleText: 'Addresses' });
