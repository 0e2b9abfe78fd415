export default definePageConfig({ navigationBarTitleText: 'Collections' });
