export default definePageConfig({ navigationBarTitleText: 'Publish' });
