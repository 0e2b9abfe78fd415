export default definePageConfig({ navigationBarTitleText: 'Tags' });
