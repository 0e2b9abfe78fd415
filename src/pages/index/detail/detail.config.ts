export default definePageConfig({ navigationBarTitleText: 'Collection' });
