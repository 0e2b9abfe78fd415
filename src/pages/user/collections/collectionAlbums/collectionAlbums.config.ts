export default definePageConfig({ navigationBarTitleText: 'Collected albums' });
