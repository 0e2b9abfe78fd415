export default definePageConfig({ navigationBarTitleText: 'Album' });
