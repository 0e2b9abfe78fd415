export default definePageConfig({ navigationBarTitleText: 'Your prescription' });
