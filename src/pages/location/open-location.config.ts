export default definePageConfig({ navigationBarTitleText: 'Location' });
