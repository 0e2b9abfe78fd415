export default definePageConfig({ navigationBarTitleText: 'History' });
