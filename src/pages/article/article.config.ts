export default definePageConfig({ navigationBarTitleText: 'Article' });
