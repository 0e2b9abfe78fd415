export default definePageConfig({ navigationBarTitleText: 'Customer service' });
