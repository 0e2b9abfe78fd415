export default definePageConfig({ navigationBarTitleText: 'Admin' });
