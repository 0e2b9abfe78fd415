export default definePageConfig({ navigationBarTitleText: 'Mine' });
