export default definePageConfig({ navigationBarTitleText: 'Groups' });
