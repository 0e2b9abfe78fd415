export default definePageConfig({ navigationBarTitleText: 'Settings' });
