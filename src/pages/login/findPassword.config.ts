export default definePageConfig({ navigationBarTitleText: 'Find password' });
