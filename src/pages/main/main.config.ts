export default definePageConfig({ navigationBarTitleText: 'Community' });
