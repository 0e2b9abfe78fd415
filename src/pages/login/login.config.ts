export default definePageConfig({ navigationBarTitleText: 'login' });
